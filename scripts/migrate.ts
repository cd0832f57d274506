// npm run migrate: applies migrations/*.sql to the store DEV_STATS_STORE selects (clickhouse or
// embedded; unset means the server), recording versions in <database>.schema_migrations.
// Running it twice changes nothing.
import { migrate } from '../src/adapters/clickhouse/clickhouse-migrator.js'
import { embeddedSession } from '../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../src/adapters/clickhouse/server-session.factory.js'
import { loadConfig } from '../src/composition/config.js'
import { explainClickHouseFailure } from '../src/composition/startup-errors.js'

const main = async (): Promise<void> => {
  const config = loadConfig({ DEV_STATS_STORE: 'clickhouse', ...process.env })
  if (config.store === 'memory') {
    console.error('DEV_STATS_STORE=memory has no schema; set DEV_STATS_STORE=clickhouse or embedded')
    process.exitCode = 2
    return
  }
  const session =
    config.store === 'clickhouse'
      ? serverSession(config.clickhouse)
      : embeddedSession({ path: config.embedded.path, database: config.clickhouse.database })
  const where = config.store === 'clickhouse' ? config.clickhouse.url : config.embedded.path
  try {
    const applied = await migrate(session)
    console.log(applied.length ? `applied to ${where} (${session.database}): ${applied.join(', ')}` : `${where} (${session.database}) is up to date`)
  } catch (e) {
    throw new Error(explainClickHouseFailure(e, config))
  } finally {
    await session.close()
  }
}

main().catch((e: unknown) => {
  console.error(`migrate failed: ${e instanceof Error ? e.message : String(e)}`)
  process.exitCode = 1
})
