import type { ClickHouseSession } from '../adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../adapters/clickhouse/server-session.factory.js'
import { ConfigError, loadConfig, type IngestConfig } from '../composition/config.js'
import { redactUrl } from '../composition/security-config.js'
import { explainClickHouseFailure } from '../composition/startup-errors.js'
import { progressLine } from './progress-line.js'

type StoreConfig = IngestConfig & { readonly store: 'clickhouse' | 'embedded' }

/** A session on the store DEV_STATS_STORE selects (a server or chdb), and how messages name it. */
export const storeSession = (config: StoreConfig): { readonly session: ClickHouseSession; readonly where: string } =>
  config.store === 'clickhouse'
    ? { session: serverSession(config.clickhouse), where: `${redactUrl(config.clickhouse.url)} (${config.clickhouse.database})` }
    : { session: embeddedSession({ path: config.embedded.path, database: config.clickhouse.database }), where: `${config.embedded.path} (${config.clickhouse.database})` }

/** The settings of a command that works on the store's schema or data: the server unless DEV_STATS_STORE says embedded. */
export const storeConfig = (env: NodeJS.ProcessEnv): StoreConfig => {
  const config = loadConfig({ DEV_STATS_STORE: 'clickhouse', ...env })
  if (config.store === 'memory') throw new ConfigError('DEV_STATS_STORE', 'memory keeps no schema and no data: set clickhouse or embedded')
  return config as StoreConfig
}

/**
 * A store command's run: `work` on a session of the configured store with a progress line; the
 * session closed after; a failure printed as `<command> failed: <why, naming the setting>`, exit 1.
 */
export const onStore = async (
  command: string,
  config: StoreConfig,
  work: (store: { readonly session: ClickHouseSession; readonly where: string; readonly progress: (text: string) => void }) => Promise<void>,
): Promise<number> => {
  const { session, where } = storeSession(config)
  const progress = progressLine(process.stdout)
  try {
    await work({ session, where, progress: (text) => progress.step(text) })
    progress.end()
    return 0
  } catch (e) {
    progress.end()
    process.stderr.write(`${command} failed: ${explainClickHouseFailure(e, config)}\n`)
    return 1
  } finally {
    await session.close()
  }
}
