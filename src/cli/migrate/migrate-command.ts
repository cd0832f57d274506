// `dev-stats-ingest migrate` (npm run migrate): applies the package's migrations/*.sql to the store
// DEV_STATS_STORE selects (clickhouse or embedded; unset means the server), recording versions in
// <database>.schema_migrations. Running it twice changes nothing.
import { migrate, pendingMigrations } from '../../adapters/clickhouse/clickhouse-migrator.js'
import { flagCommand } from '../cli-command.js'
import { onStore, storeConfig } from '../store-session.js'

const HELP = `dev-stats-ingest migrate [--dry-run]

Applies, in order, the package's ClickHouse migrations the store has not recorded in
<database>.schema_migrations (creating the database on first use). Safe to run again: an
interrupted run is completed by the next. With DEV_STATS_CLICKHOUSE_CLUSTER every statement runs
ON CLUSTER. After 0008 on a store that already holds facts, run dev-stats-ingest backfill.

  --dry-run   print the migrations the store lacks; apply nothing

Settings: DEV_STATS_STORE (clickhouse, the default here, or embedded), DEV_STATS_CLICKHOUSE_URL,
_USER, _PASSWORD(_FILE), _DATABASE, _CLUSTER, _CA_FILE; DEV_STATS_EMBEDDED_PATH.
Exit codes: 0 applied or up to date; 1 the store failed; 2 wrong usage or an invalid setting.`

const say = (s: string): void => void process.stdout.write(`${s}\n`)

const apply = (config: ReturnType<typeof storeConfig>, dryRun: boolean): Promise<number> =>
  onStore('migrate', config, async ({ session, where, progress }) => {
    if (dryRun) {
      const pending = await pendingMigrations(session)
      pending.forEach((v) => say(`would apply ${v}`))
      return say(pending.length ? `dry run: ${where} lacks ${pending.length} migration(s), nothing applied` : `${where} is up to date`)
    }
    const applied = await migrate(session, undefined, undefined, (s) => progress(`applying ${s.version} (${s.index + 1}/${s.of}, ${s.statements} statement(s))`))
    say(applied.length ? `applied to ${where}: ${applied.join(', ')}` : `${where} is up to date`)
  })

export const run = flagCommand({
  name: 'migrate',
  help: HELP,
  options: { 'dry-run': { type: 'boolean' } },
  run: (values, env) => apply(storeConfig(env), values['dry-run'] === true),
})
