// One ingest process of `dev-stats-ingest start`: the whole service (one worker, the default), or a
// worker of `start --workers N` (its primary serves HTTP: the worker's DEV_STATS_HTTP_PORT is 0).
// Runs every enabled consumer against the configured broker and store until SIGTERM or SIGINT,
// then finishes the in-flight batches, commits what was inserted and leaves the groups.
import { pino, type Logger } from 'pino'
import { decodeKafkaJsHeaderValuesAsText } from '../../adapters/kafka/kafkajs/kafkajs-record-decoder.js'
import { createIngestProcess, type IngestProcess } from '../../composition/create-dev-stats-ingest.js'
import { serveOps } from '../../composition/ops.js'
import { readApiHttpSettings, readApiSettings } from '../../composition/read-api-config.js'
import {
  ConfigError, ConfluentClientMissing, EmbeddedStoreMissing, StartupError, configFromEnv,
} from '../../index.js'
import { guardExit } from './exit-guard.js'
import { STARTUP_TIMEOUT, retryStartIn, startupTimeoutSeconds } from './startup-deadline.js'
import { STOP_TIMEOUT, stopTimeoutSeconds, stopWithin } from './stop-deadline.js'
import type { WorkerLink } from './workers/worker-link.js'

export const failed = (code: 1 | 2, message: string): number => {
  process.stderr.write(`${code === 2 ? '' : 'dev-stats ingest: '}${message}\n`)
  return code
}

export const isSettingError = (e: unknown): e is Error => e instanceof ConfigError || e instanceof ConfluentClientMissing || e instanceof EmbeddedStoreMissing

/** Resolves with the exit code once stopped (0 after a signal) or refused at start. */
export const runIngestProcess = async (env: NodeJS.ProcessEnv, worker?: WorkerLink): Promise<number> => {
  let ingest: IngestProcess
  let readApi: ReturnType<typeof readApiSettings>
  let readApiHttp: ReturnType<typeof readApiHttpSettings>
  let logger: Logger
  let stopSeconds: number
  let startupSeconds: number
  try {
    stopSeconds = stopTimeoutSeconds(env)
    startupSeconds = startupTimeoutSeconds(env)
    const config = configFromEnv(env)
    // The read API is served beside /metrics only when a DEV_STATS_READ_API_* key is set.
    readApi = readApiSettings(env)
    readApiHttp = readApiHttpSettings(env)
    // Every kafkajs consumer of this process is the library's: header values as text, no Buffer each.
    decodeKafkaJsHeaderValuesAsText()
    logger = pino({ name: 'dev-stats-ingest', level: config.logLevel })
    if (worker) logger = logger.child({ worker: worker.index })
    ingest = createIngestProcess({ config, logger, ...(worker ? { registry: worker.registry } : {}) }, worker?.passes ?? { here: true })
  } catch (e) {
    if (isSettingError(e)) return failed(2, e.message)
    throw e
  }
  const { http } = ingest.config
  worker?.attach(ingest)

  let ops: Awaited<ReturnType<typeof serveOps>> | undefined
  let stopped: (code: number) => void = () => undefined
  const exit = new Promise<number>((resolve) => (stopped = resolve))
  let stopping: Promise<void> | undefined
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal }, 'stopping: finishing the in-flight batches')
      const outcome = await stopWithin(stopSeconds, ingest.stop(), () =>
        logger.error({ seconds: stopSeconds }, `stop deadline passed (${STOP_TIMEOUT}): exiting without committing anything more; the uncommitted records come again to whoever takes the partitions`),
      )
      if (outcome === 'deadline') return stopped(1)
      await ops?.close()
      logger.info({}, 'stopped')
    })()
    void stopping.then(() => stopped(0), (e: unknown) => {
      logger.error({ err: String(e) }, 'unclean stop')
      stopped(1)
    })
  }
  // on, not once: npm passes the signal on as well, and a second SIGTERM must not kill the shutdown
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
  guardExit(process, () => stopping !== undefined)

  try {
    ops = await serveOps(ingest, http, logger, readApi, readApiHttp)
  } catch (e) {
    return failed(1, `cannot serve HTTP on ${http.host}:${http.port} (DEV_STATS_HTTP_PORT): ${String((e as Error).message ?? e)}`)
  }
  const deadline = Date.now() + startupSeconds * 1000
  for (let attempt = 1; ; attempt++) {
    try {
      await ingest.start()
      worker?.started()
      break
    } catch (e) {
      if (!(e instanceof StartupError)) throw e
      const waitMs = stopping ? undefined : retryStartIn(e, attempt, deadline - Date.now())
      if (waitMs === undefined) {
        logger.error({ failure: e.failure, retriable: e.retriable, attempts: attempt }, e.message.split('\n')[0] ?? e.failure)
        return failed(1, attempt > 1 ? `${e.message}\n  (${attempt} attempts over ${startupSeconds} s, ${STARTUP_TIMEOUT})` : e.message)
      }
      logger.warn({ failure: e.failure, attempt, retryInMs: waitMs }, `${e.message.split('\n')[0] ?? e.failure}; trying again`)
      let timer: NodeJS.Timeout | undefined
      const signalled = await Promise.race([exit.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), waitMs)))])
      clearTimeout(timer)
      if (signalled || stopping) return exit
    }
  }
  return exit
}
