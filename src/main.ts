// `npm start`: the standalone service, one host of the library's public entry. Runs every enabled
// consumer against the configured broker and store until SIGTERM or SIGINT, then finishes the
// in-flight batches, commits what was inserted and leaves the groups. Exit 2: a setting is invalid
// or the chosen optional client is missing; exit 1: a server is unreachable, the store lacks a migration
// or topics are missing.
import { pino } from 'pino'
import { serveOps } from './composition/ops.js'
import { readApiSettings } from './composition/read-api-config.js'
import {
  ConfigError, ConfluentClientMissing, EmbeddedStoreMissing, StartupError, configFromEnv, createDevStatsIngest, decodeKafkaJsHeaderValuesAsText, type DevStatsIngest,
} from './index.js'

const fail = (code: number, message: string): never => {
  process.stderr.write(`${code === 2 ? '' : 'dev-stats ingest: '}${message}\n`)
  process.exit(code)
}

/** A setting or the chosen optional client is wrong: exit 2 with the error's own explanation. */
const orExit2 = <T>(build: () => T): T => {
  try {
    return build()
  } catch (e) {
    if (e instanceof ConfigError || e instanceof ConfluentClientMissing || e instanceof EmbeddedStoreMissing) return fail(2, e.message)
    throw e
  }
}

const config = orExit2(() => configFromEnv(process.env))
// Every kafkajs consumer of this process is the library's: header values as text, no Buffer each.
decodeKafkaJsHeaderValuesAsText()
// The read API is served beside /metrics only when a DEV_STATS_READ_API_* key is set.
const readApi = orExit2(() => readApiSettings(process.env))
const logger = pino({ name: 'dev-stats-ingest', level: config.logLevel })
const ingest: DevStatsIngest = orExit2(() => createDevStatsIngest({ config, logger }))
const { http } = config

let ops: Awaited<ReturnType<typeof serveOps>>
let stopping: Promise<void> | undefined
const shutdown = (signal: string) => {
  stopping ??= (async () => {
    logger.info({ signal }, 'stopping: finishing the in-flight batches')
    await ingest.stop()
    await ops?.close()
    logger.info({}, 'stopped')
  })()
  void stopping.then(() => process.exit(0), (e: unknown) => {
    logger.error({ err: String(e) }, 'unclean stop')
    process.exit(1)
  })
}
// on, not once: npm passes the signal on as well, and a second SIGTERM must not kill the shutdown
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))

try {
  ops = await serveOps(ingest, http, logger, readApi)
} catch (e) {
  fail(1, `cannot serve HTTP on ${http.host}:${http.port} (DEV_STATS_HTTP_PORT): ${String((e as Error).message ?? e)}`)
}
try {
  await ingest.start()
} catch (e) {
  if (!(e instanceof StartupError)) throw e
  logger.error({ failure: e.failure, retriable: e.retriable }, e.message.split('\n')[0] ?? e.failure)
  fail(1, e.message)
}
