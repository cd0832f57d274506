// `dev-stats-ingest check`: a read-only preflight of what start needs, one line per check.
import { flagCommand } from '../cli-command.js'
import { describeUnknown, unknownVariables } from '../../composition/unknown-settings.js'
import { preflight, type CheckResult } from './preflight.js'

const HELP = `dev-stats-ingest check

Tries, without starting anything and writing nothing anywhere, what dev-stats-ingest start needs:
  settings   every DEV_STATS_* setting valid (each invalid one named)
  store      the store reachable and every migration of this package applied (else which lack)
  client     the librdkafka client installed, when DEV_STATS_BROKER=confluent
  broker     the brokers reachable with the chosen client and security settings
  topics     every enabled consumer's source, .dlq and .retry topic present (else which lack)
  read API   the DEV_STATS_READ_API_* key loadable (a JWKS fetched), or the API off
Prints one line per check.

Exit codes: 0 every check passed; 1 a check failed; 2 wrong usage, or a DEV_STATS_* variable
that is no setting (a misspelled name: each is named with the closest known one, nothing is checked).`

const MARK: Readonly<Record<CheckResult['outcome'], string>> = { ok: 'ok  ', fail: 'FAIL', skipped: '--  ' }

export const run = flagCommand({
  name: 'check',
  help: HELP,
  options: {},
  run: async (_, env) => {
    const unknown = unknownVariables(env)
    for (const u of unknown) process.stdout.write(`${MARK.fail}  ${'settings'.padEnd(9)} ${u.name} ${describeUnknown(u)}\n`)
    if (unknown.length > 0) {
      process.stdout.write(`${unknown.length} unknown setting(s): nothing else checked\n`)
      return 2
    }
    let failed = 0
    let total = 0
    for await (const r of preflight(env)) {
      total += 1
      if (r.outcome === 'fail') failed += 1
      process.stdout.write(`${MARK[r.outcome]}  ${r.check.padEnd(9)} ${r.detail.replaceAll('\n', `\n${' '.repeat(16)}`)}\n`)
    }
    process.stdout.write(failed === 0 ? `every check passed (${total})\n` : `${failed} of ${total} checks failed\n`)
    return failed === 0 ? 0 : 1
  },
})
