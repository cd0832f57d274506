// The entry of `dev-stats-ingest` (dist/cli/bin.cjs), of npm start (its bundle) and of the
// repository's npm run migrate/topics/check/backfill/dlq/replay (through tsx).
import { runCli } from './cli.js'

process.exit(await runCli(process.argv.slice(2)))
