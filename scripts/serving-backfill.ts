// npm run serving:backfill: fills the developer-keyed serving tables (migration 0008) from the
// facts the store already holds, for a store that had data before that migration. Prints a line
// per chunk; safe to stop and run again (done chunks are skipped) and to run beside the ingest.
import { embeddedSession } from '../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../src/adapters/clickhouse/server-session.factory.js'
import { backfillServing } from '../src/adapters/clickhouse/serving-backfill.js'
import { loadConfig } from '../src/composition/config.js'
import { explainClickHouseFailure } from '../src/composition/startup-errors.js'

const main = async (): Promise<void> => {
  const config = loadConfig({ DEV_STATS_STORE: 'clickhouse', ...process.env })
  if (config.store === 'memory') {
    console.error('DEV_STATS_STORE=memory keeps nothing to backfill; set DEV_STATS_STORE=clickhouse or embedded')
    process.exitCode = 2
    return
  }
  const session =
    config.store === 'clickhouse'
      ? serverSession(config.clickhouse)
      : embeddedSession({ path: config.embedded.path, database: config.clickhouse.database })
  const started = Date.now()
  try {
    await backfillServing(session, (p) => {
      console.log(`${p.step} ${p.chunk} (${p.done}/${p.of})${p.skipped ? ' already done' : ''}`)
    })
    console.log(`serving tables filled in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } catch (e) {
    throw new Error(explainClickHouseFailure(e, config))
  } finally {
    await session.close()
  }
}

main().catch((e: unknown) => {
  console.error(`serving:backfill failed: ${e instanceof Error ? e.message : String(e)}`)
  process.exitCode = 1
})
