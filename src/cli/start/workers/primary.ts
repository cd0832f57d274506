// The primary of `dev-stats-ingest start --workers N`: consumes nothing itself. It checks the
// settings before forking, serves HTTP for its workers (their metrics, one readiness, the read API
// from a read side of its own), forks N workers and restarts one that dies; SIGTERM or SIGINT stops
// every worker, each within its own stop deadline.
import { availableParallelism } from 'node:os'
import { pino, type Logger } from 'pino'
import { Registry } from 'prom-client'
import type { OpsHttpServer } from '../../../adapters/http/ops-http-server.js'
import { requireBrokerClient } from '../../../composition/broker.factory.js'
import type { IngestConfig } from '../../../composition/config.js'
import { serveOps } from '../../../composition/ops.js'
import { readApiHttpSettings, readApiSettings } from '../../../composition/read-api-config.js'
import { createReadSide } from '../../../composition/read-side.js'
import { configFromEnv } from '../../../index.js'
import { guardExit } from '../exit-guard.js'
import { failed, isSettingError, runIngestProcess } from '../ingest-process.js'
import { startupTimeoutSeconds } from '../startup-deadline.js'
import { stopTimeoutSeconds } from '../stop-deadline.js'
import { largestPartitionCount } from './largest-partition-count.js'
import { startWorkerPool, type WorkerPool } from './worker-pool.js'
import { refuseUnshared, workerCount, type WorkersSetting } from './workers-setting.js'

/** The settings, checked as a worker would check them: exit 2 here, not N times after forking. */
const settingsOf = (setting: WorkersSetting, env: NodeJS.ProcessEnv) => {
  const stopSeconds = stopTimeoutSeconds(env)
  startupTimeoutSeconds(env)
  const config = configFromEnv(env)
  const readApi = readApiSettings(env)
  const readApiHttp = readApiHttpSettings(env)
  refuseUnshared(setting, config)
  requireBrokerClient(config)
  return { stopSeconds, config, readApi, readApiHttp }
}

const countOf = async (setting: WorkersSetting, config: IngestConfig, logger: Logger): Promise<number> => {
  if (setting.workers !== 'auto') return setting.workers
  const cpus = availableParallelism()
  const partitions = cpus > 1 ? await largestPartitionCount(config, logger) : 1
  const count = workerCount(setting, cpus, partitions)
  logger.info({ cpus, partitions, workers: count }, `auto: ${count} worker(s)`)
  return count
}

/** Resolves with the exit code: 0 once every worker stopped cleanly after a signal. */
export const runPrimary = async (setting: WorkersSetting, env: NodeJS.ProcessEnv): Promise<number> => {
  let settings: ReturnType<typeof settingsOf>
  try {
    settings = settingsOf(setting, env)
  } catch (e) {
    if (isSettingError(e)) return failed(2, e.message)
    throw e
  }
  const { stopSeconds, config, readApi, readApiHttp } = settings
  const logger = pino({ name: 'dev-stats-ingest', level: config.logLevel })
  const count = await countOf(setting, config, logger)
  if (count === 1) return runIngestProcess(env)

  const reads = createReadSide(config, logger)
  let pool: WorkerPool | undefined
  let ops: OpsHttpServer | undefined
  let finish: (code: number) => void = () => undefined
  const exit = new Promise<number>((resolve) => (finish = resolve))
  let stopping: Promise<void> | undefined
  const stop = (why: Record<string, unknown>, code?: number) => {
    stopping ??= (async () => {
      logger.info(why, 'stopping: SIGTERM to every worker')
      const clean = (await pool?.stop()) ?? true
      await ops?.close()
      await reads.close()
      if (clean) logger.info({}, 'stopped')
      else logger.error({}, 'a worker did not stop cleanly')
      finish(code ?? (clean ? 0 : 1))
    })().catch((e: unknown) => {
      logger.error({ err: String(e) }, 'unclean stop')
      finish(1)
    })
  }
  // on, not once: npm passes the signal on as well, and a second SIGTERM must not kill the shutdown
  process.on('SIGTERM', () => stop({ signal: 'SIGTERM' }))
  process.on('SIGINT', () => stop({ signal: 'SIGINT' }))
  guardExit(process, () => stopping !== undefined)

  const source = {
    config,
    read: reads.read,
    readiness: async () => (pool ? pool.readiness() : { ready: false, reasons: ['no worker started yet'] }),
    registry: { contentType: Registry.PROMETHEUS_CONTENT_TYPE, metrics: async () => (pool ? pool.metrics() : '') },
  }
  try {
    ops = await serveOps(source, config.http, logger, readApi, readApiHttp)
  } catch (e) {
    await reads.close()
    return failed(1, `cannot serve HTTP on ${config.http.host}:${config.http.port} (DEV_STATS_HTTP_PORT): ${String((e as Error).message ?? e)}`)
  }
  if (stopping) return exit
  pool = startWorkerPool({ count, env, logger, stopSeconds, failed: (code) => stop({ workerFailed: code }, code) })
  return exit
}
