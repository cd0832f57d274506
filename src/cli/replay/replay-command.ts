// `dev-stats-ingest replay --consumer <KEY|all> --from <time> [--to-latest] [--dry-run]` (replay-help.ts).
import { replayConsumers } from '../../application/replay/replay-consumer.js'
import { replayToolFor, type ReplayTool } from '../../composition/replay-tool.js'
import type { CommandRun } from '../cli-command.js'
import { runTool } from '../cli-runner.js'
import { CONSUMERS } from '../../application/consumers/consumer-registry.js'
import { parseReplayArgs, type ReplayCommand } from './replay-args.js'
import { REPLAY_HELP } from './replay-help.js'
import { outcomeText, planText } from './replay-print.js'

const say = (s: string): void => void process.stdout.write(`${s}\n`)

const execute = async (command: Extract<ReplayCommand, { name: 'replay' }>, tool: ReplayTool): Promise<number> => {
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

export const run: CommandRun = (argv, env) =>
  runTool(
    {
      name: 'replay',
      helpHint: 'dev-stats-ingest replay --help',
      help: REPLAY_HELP,
      parse: (argv) => parseReplayArgs(argv, CONSUMERS.map((c) => c.key)) as Extract<ReplayCommand, { name: 'replay' }>,
      open: replayToolFor,
      run: execute,
    },
    argv,
    env,
  )
