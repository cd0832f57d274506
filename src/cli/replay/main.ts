// `npm run replay -- --consumer <KEY|all> --from <time> [--to-latest] [--dry-run]` (replay-help.ts).
import { replayConsumers } from '../../application/replay/replay-consumer.js'
import { ConfigError, loadConfig, type IngestConfig } from '../../composition/config.js'
import { replayToolFor, type ReplayTool } from '../../composition/replay-tool.js'
import { explainKafkaFailure } from '../../composition/startup-errors.js'
import { CONSUMERS } from '../../application/consumers/consumer-registry.js'
import { parseReplayArgs, UsageError, type ReplayCommand } from './replay-args.js'
import { REPLAY_HELP } from './replay-help.js'
import { outcomeText, planText } from './replay-print.js'

const say = (s: string): void => void process.stdout.write(`${s}\n`)

const run = async (command: Extract<ReplayCommand, { name: 'replay' }>, tool: ReplayTool): Promise<number> => {
  const wanted = command.consumers
  const consumers = wanted === 'all' ? tool.consumers : tool.consumers.filter((c) => wanted.includes(c.spec.key))
  const outcome = await replayConsumers(tool.admin)(consumers, { from: command.from, dryRun: command.dryRun, toLatest: command.toLatest })
  if (outcome.kind === 'refused') {
    process.stderr.write(`${outcomeText(outcome)}\n`)
    return 1
  }
  outcome.replays.forEach((r) => say(planText(r, command.from)))
  say(outcomeText(outcome))
  return 0
}

const main = async (): Promise<number> => {
  let command: ReplayCommand
  let tool: ReplayTool
  let config: IngestConfig
  try {
    command = parseReplayArgs(process.argv.slice(2), CONSUMERS.map((c) => c.key))
    if (command.name === 'help') return say(REPLAY_HELP), 0
    config = loadConfig({ DEV_STATS_BROKER: 'kafkajs', DEV_STATS_LOG_LEVEL: 'error', ...process.env })
    if (config.broker === 'memory') throw new ConfigError('DEV_STATS_BROKER', 'must be kafkajs or confluent for the replay tool')
    tool = replayToolFor(config)
  } catch (e) {
    // wrong usage, an invalid setting or the optional librdkafka client missing (its message says how to install it)
    if (!(e instanceof UsageError || e instanceof ConfigError || (e as Error).name === 'ConfluentClientMissing')) throw e
    process.stderr.write(`${(e as Error).message}\n(npm run replay -- --help)\n`)
    return 2
  }
  try {
    await tool.check()
    return await run(command, tool)
  } catch (e) {
    process.stderr.write(`\nreplay failed: ${explainKafkaFailure(e, config)}\n`)
    return 1
  }
}

process.exit(await main())
