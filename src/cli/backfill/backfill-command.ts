// `dev-stats-ingest backfill` (npm run serving:backfill): fills the developer-keyed serving tables
// (migration 0008) from the facts the store already holds, for a store that had data before that
// migration. Safe to stop and run again (done chunks are skipped) and to run beside the ingest.
import { backfillServing } from '../../adapters/clickhouse/serving-backfill.js'
import { explainClickHouseFailure } from '../../composition/startup-errors.js'
import { flagCommand } from '../cli-command.js'
import { progressLine } from '../progress-line.js'
import { storeConfig, storeSession } from '../store-session.js'

const HELP = `dev-stats-ingest backfill

Fills the serving tables of migration 0008 (the developer-keyed copies the read API answers from)
from the facts and funnel events the store already holds, chunk by chunk. Needed once, after
dev-stats-ingest migrate applied 0008 to a store that had data; the ingest keeps them filled from
then on. Safe to stop and run again (done chunks are skipped) and to run beside the service.

Settings: as for dev-stats-ingest migrate.
Exit codes: 0 done; 1 the store failed; 2 wrong usage or an invalid setting.`

const fill = async (config: ReturnType<typeof storeConfig>): Promise<number> => {
  const { session } = storeSession(config)
  const progress = progressLine(process.stdout)
  const started = Date.now()
  try {
    await backfillServing(session, (p) => progress.step(`${p.step} ${p.chunk} (${p.done}/${p.of})${p.skipped ? ' already done' : ''}`))
    progress.end()
    process.stdout.write(`serving tables filled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
    return 0
  } catch (e) {
    progress.end()
    process.stderr.write(`backfill failed: ${explainClickHouseFailure(e, config)}\n`)
    return 1
  } finally {
    await session.close()
  }
}

export const run = flagCommand({
  name: 'backfill',
  help: HELP,
  options: {},
  run: (_, env) => fill(storeConfig(env))
})
