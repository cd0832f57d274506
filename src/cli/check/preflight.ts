import { existsSync } from 'node:fs'
import { pendingMigrations } from '../../adapters/clickhouse/clickhouse-migrator.js'
import { servingIncomplete } from '../../adapters/clickhouse/serving-completeness.js'
import { requireChdb } from '../../adapters/clickhouse/chdb-client.js'
import { silentLogger } from '../../adapters/observability/silent-logger.js'
import { requiredTopics } from '../../application/consumers/consumer-topics.js'
import { brokerAdaptersFor, requireBrokerClient } from '../../composition/broker.factory.js'
import { ConfigError, convertEnv, type IngestConfig } from '../../composition/config.js'
import { consumersOf } from '../../composition/consumers.js'
import { readApiHttpSettings, readApiSettings } from '../../composition/read-api-config.js'
import { settingProblems } from '../../composition/setting-rules.js'
import { explainClickHouseFailure, explainKafkaFailure } from '../../composition/startup-errors.js'
import { sql } from '../../adapters/clickhouse/sql-fragment.js'
import { storeSession } from '../store-session.js'
import { startupTimeoutSeconds } from '../start/startup-deadline.js'
import { stopTimeoutSeconds } from '../start/stop-deadline.js'
import { workersSetting } from '../start/workers/workers-setting.js'

export interface CheckResult {
  readonly check: string
  readonly outcome: 'ok' | 'fail' | 'skipped'
  readonly detail: string
}

const ok = (check: string, detail: string): CheckResult => ({ check, outcome: 'ok', detail })
const fail = (check: string, detail: string): CheckResult => ({ check, outcome: 'fail', detail })
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

const JWKS_TIMEOUT_MS = 5_000

const storeCheck = async (config: IngestConfig): Promise<CheckResult> => {
  if (config.store === 'memory') return ok('store', 'in memory (DEV_STATS_STORE=memory): nothing to reach, nothing kept')
  if (config.store === 'embedded') {
    try {
      requireChdb()
    } catch (e) {
      return fail('store', message(e))
    }
    // opening chdb on a path that is not there would create it: check writes nothing
    if (!existsSync(config.embedded.path)) return fail('store', `no embedded store at ${config.embedded.path} (DEV_STATS_EMBEDDED_PATH): run dev-stats-ingest migrate`)
  }
  const { session, where } = storeSession(config as IngestConfig & { store: 'clickhouse' | 'embedded' })
  try {
    await session.select(sql`SELECT 1 AS ok`)
    const pending = await pendingMigrations(session)
    if (pending.length > 0) return fail('store', `${where} lacks ${pending.length} migration(s): ${pending.join(', ')} (run dev-stats-ingest migrate)`)
    const incomplete = await servingIncomplete(session)
    return incomplete === undefined
      ? ok('store', `${where}: every migration applied, the serving tables complete`)
      : fail('store', `${where}: ${incomplete} (run dev-stats-ingest backfill)`)
  } catch (e) {
    return fail('store', `cannot reach ${where}: ${explainClickHouseFailure(e, config)}`)
  } finally {
    await session.close()
  }
}

const brokerChecks = async (config: IngestConfig): Promise<CheckResult[]> => {
  if (config.broker === 'memory') return [ok('broker', 'in memory (DEV_STATS_BROKER=memory): nothing to reach')]
  const where = `Kafka at ${config.kafka.brokers.join(',')} (client ${config.broker})`
  const results: CheckResult[] = []
  if (config.broker === 'confluent') {
    try {
      requireBrokerClient(config)
      results.push(ok('client', 'librdkafka (@confluentinc/kafka-javascript) loads'))
    } catch (e) {
      return [fail('client', message(e)), { check: 'broker', outcome: 'skipped', detail: 'no client to connect with' }]
    }
  }
  const adapters = brokerAdaptersFor(config, silentLogger)
  try {
    await adapters.check()
    results.push(ok('broker', where))
    const missing = await adapters.catalog.missing(requiredTopics(consumersOf(config)))
    results.push(missing.length === 0 ? ok('topics', 'every enabled consumer finds its source, .dlq and .retry topic') : fail('topics', `${missing.length} missing: ${missing.join(', ')} (run dev-stats-ingest topics)`))
  } catch (e) {
    results.push(fail(results.some((r) => r.check === 'broker') ? 'topics' : 'broker', `${where}: ${explainKafkaFailure(e, config)}`))
  } finally {
    await adapters.close().catch(() => undefined)
  }
  return results
}

const readApiCheck = async (env: NodeJS.ProcessEnv): Promise<CheckResult> => {
  let settings
  try {
    settings = readApiSettings(env)
    readApiHttpSettings(env)
  } catch (e) {
    return fail('read API', message(e))
  }
  if (!settings) return ok('read API', 'off (no DEV_STATS_READ_API_* key set)')
  if (settings.key.kind !== 'jwks') return ok('read API', `key loaded (${settings.key.kind === 'secret' ? 'HS256 secret' : 'RS256/ES256 public key'})`)
  const url = settings.key.url
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) })
    const keys = res.ok ? ((await res.json()) as { keys?: unknown }).keys : undefined
    if (!Array.isArray(keys) || keys.length === 0) return fail('read API', `${url.origin}${url.pathname} (DEV_STATS_READ_API_JWKS_URL) answered ${res.status} without a key set`)
    return ok('read API', `JWKS at ${url.origin}${url.pathname}: ${keys.length} key(s)`)
  } catch (e) {
    return fail('read API', `cannot fetch the JWKS at ${url.origin}${url.pathname} (DEV_STATS_READ_API_JWKS_URL): ${message(e)}`)
  }
}

/**
 * The configuration, or every invalid setting: converting stops at the first value not of its type,
 * so each one named is set aside (its default taken) and the rest converted again.
 */
const settingsOf = (env: NodeJS.ProcessEnv): { readonly config?: IngestConfig; readonly problems: readonly string[] } => {
  const problems: string[] = []
  // read by start only, checked here all the same
  for (const startOnly of [stopTimeoutSeconds, startupTimeoutSeconds, (e: NodeJS.ProcessEnv) => workersSetting(undefined, e)]) {
    try {
      startOnly(env)
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e
      problems.push(e.message)
    }
  }
  const rest = { ...env }
  for (;;) {
    try {
      const config = convertEnv(rest)
      problems.push(...settingProblems(config).map((p) => new ConfigError(p.rule.env, p.problem).message))
      return problems.length === 0 ? { config, problems } : { problems }
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e
      problems.push(e.message)
      if (rest[e.setting] === undefined) return { problems }
      delete rest[e.setting]
    }
  }
}

/** Each check as it completes; reads settings, servers and files, writes nothing anywhere. */
export async function* preflight(env: NodeJS.ProcessEnv): AsyncGenerator<CheckResult> {
  const { config, problems } = settingsOf(env)
  for (const p of problems) yield fail('settings', p)
  if (config) yield ok('settings', `broker ${config.broker}, store ${config.store}, ${consumersOf(config).length} consumer(s) enabled`)
  if (config) {
    yield await storeCheck(config)
    yield* await brokerChecks(config)
  } else {
    for (const check of ['store', 'broker']) yield { check, outcome: 'skipped', detail: 'the settings are invalid' }
  }
  yield await readApiCheck(env)
}
