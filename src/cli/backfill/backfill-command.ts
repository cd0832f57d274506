// `dev-stats-ingest backfill` (npm run serving:backfill): fills the developer-keyed serving tables
// (migration 0008) from the facts the store already holds, for a store that had data before that
// migration. Safe to stop and run again (done chunks are skipped) and to run beside the ingest.
import { backfillServing } from '../../adapters/clickhouse/serving-backfill.js'
import { flagCommand } from '../cli-command.js'
import { onStore, storeConfig } from '../store-session.js'

const HELP = `dev-stats-ingest backfill

Fills the serving tables of migration 0008 (the developer-keyed copies the read API answers from)
from the facts and funnel events the store already holds, chunk by chunk. Needed once, after
dev-stats-ingest migrate applied 0008 to a store that had data (start refuses until it finished);
the ingest keeps them filled from then on. Safe to stop and run again (done chunks are skipped, a
day with facts newer than its backfill is done again) and to run beside the service.

Settings: as for dev-stats-ingest migrate.
Exit codes: 0 done; 1 the store failed; 2 wrong usage or an invalid setting.`

const fill = (config: ReturnType<typeof storeConfig>): Promise<number> => {
  const started = Date.now()
  return onStore('backfill', config, async ({ session, progress }) => {
    await backfillServing(session, (p) => progress(`${p.step} ${p.chunk} (${p.done}/${p.of})${p.skipped ? ' already done' : ''}`))
    process.stdout.write(`serving tables filled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  })
}

export const run = flagCommand({
  name: 'backfill',
  help: HELP,
  options: {},
  run: (_, env) => fill(storeConfig(env)),
})
