import { ConfigError, loadConfig, type IngestConfig } from '../composition/config.js'
import { explainKafkaFailure } from '../composition/startup-errors.js'

/** Wrong use of a tool's command line: exit 2 with the usage hint. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

// A time without its zone would be read in the local zone of whoever runs the tool.
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** `--<flag>`'s ISO-8601 date-time, which must carry its zone (`Z` or `±hh:mm`). */
export const zonedInstant = (flag: string, raw: string): number => {
  const t = Date.parse(raw)
  if (!ISO_WITH_ZONE.test(raw) || Number.isNaN(t)) {
    throw new UsageError(`--${flag} must be an ISO-8601 date-time with its zone, such as 2026-11-01T00:00:00Z, got "${raw}"`)
  }
  return t
}

/** What a Kafka tool needs opened before its command runs, and closed after it whatever happened. */
export interface OpenedTool {
  check(): Promise<void>
  close(): Promise<void>
}

export interface ToolSpec<C extends { readonly name: string }, T extends OpenedTool> {
  /** As the messages name it: `dlq`, `replay`. */
  readonly name: string
  /** Printed after a usage or setting error: where the help is. */
  readonly helpHint: string
  readonly help: string
  /** The command line (`{ name: 'help' }` for the help); throws UsageError. */
  readonly parse: (argv: readonly string[]) => C | { readonly name: 'help' }
  readonly open: (config: IngestConfig) => T
  /** The exit code: 0 done, 1 refused. */
  readonly run: (command: C, tool: T) => Promise<number>
}

const say = (s: string): void => void process.stdout.write(`${s}\n`)

/**
 * Runs one invocation of an operator tool: 2 for wrong usage, an invalid setting or the optional
 * librdkafka client missing (its message says how to install it); 1 when the broker fails the
 * command; the tool's clients closed in every case once opened. Settings come from the
 * environment as for `npm start`, the Kafka client kafkajs unless DEV_STATS_BROKER says otherwise.
 */
export const runTool = async <C extends { readonly name: string }, T extends OpenedTool>(spec: ToolSpec<C, T>, argv: readonly string[], env = process.env): Promise<number> => {
  let command: C
  let config: IngestConfig
  let tool: T
  try {
    const parsed = spec.parse(argv)
    if (parsed.name === 'help') return say(spec.help), 0
    command = parsed as C
    config = loadConfig({ DEV_STATS_BROKER: 'kafkajs', DEV_STATS_LOG_LEVEL: 'error', ...env })
    if (config.broker === 'memory') throw new ConfigError('DEV_STATS_BROKER', `must be kafkajs or confluent for the ${spec.name} tool`)
    tool = spec.open(config)
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof ConfigError || (e as Error).name === 'ConfluentClientMissing')) throw e
    process.stderr.write(`${(e as Error).message}\n(${spec.helpHint})\n`)
    return 2
  }
  try {
    await tool.check()
    return await spec.run(command, tool)
  } catch (e) {
    process.stderr.write(`\n${spec.name} failed: ${explainKafkaFailure(e, config)}\n`)
    return 1
  } finally {
    await tool.close().catch(() => undefined)
  }
}
