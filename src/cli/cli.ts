import type { CommandRun } from './cli-command.js'
import { packageVersion } from './package-info.js'

interface Command {
  readonly summary: string
  /** Loaded when chosen: `--help` and `start` do not load the other tools. */
  readonly load: () => Promise<{ readonly run: CommandRun }>
}

const COMMANDS: Readonly<Record<string, Command>> = {
  start: { summary: 'run the service: every enabled consumer, /metrics, /health and the read API', load: () => import('./start/start-command.js') },
  migrate: { summary: "apply the package's ClickHouse migrations the store lacks (--dry-run lists them)", load: () => import('./migrate/migrate-command.js') },
  topics: { summary: 'create the Kafka topics the consumers need that are missing (--list prints them)', load: () => import('./topics/topics-command.js') },
  check: { summary: 'read-only preflight: settings, store and migrations, broker, topics, read API key', load: () => import('./check/check-command.js') },
  backfill: { summary: 'fill the serving tables (migration 0008) from the facts a store already holds', load: () => import('./backfill/backfill-command.js') },
  replay: { summary: "re-ingest consumers from a point in time (moves their groups' offsets)", load: () => import('./replay/replay-command.js') },
  dlq: { summary: 'inspect and replay dead letters', load: () => import('./dlq/dlq-command.js') },
}

export const USAGE = `dev-stats-ingest <command> [options]

Commands
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
  .join('\n')}

Options
  -h, --help     this text; dev-stats-ingest <command> --help for a command's own
  -v, --version  the package's version

Settings come from the DEV_STATS_* environment variables (docs/configuration.md).
Exit codes: 0 done, 1 failed (a server, the store or the broker; the reason on stderr),
2 wrong usage, an invalid setting or the chosen optional client not installed.`

/** `dev-stats-ingest <argv>`: the exit code. */
export const runCli = async (argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> => {
  const [first, ...rest] = argv
  if (first === undefined) return process.stderr.write(`${USAGE}\n`), 2
  if (first === '--help' || first === '-h' || first === 'help') return process.stdout.write(`${USAGE}\n`), 0
  if (first === '--version' || first === '-v') return process.stdout.write(`${packageVersion()}\n`), 0
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined
  if (!command) {
    process.stderr.write(`unknown ${first.startsWith('-') ? 'option' : 'command'} "${first}"\n\n${USAGE}\n`)
    return 2
  }
  return (await command.load()).run(rest, env)
}
