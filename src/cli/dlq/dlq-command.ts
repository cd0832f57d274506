// `dev-stats-ingest dlq <command>` (npm run dlq): inspect and replay dead letters (dlq-help.ts).
import { randomUUID } from 'node:crypto'
import { replayDeadLetters } from '../../application/dlq/replay-dead-letters.js'
import { showDeadLetters } from '../../application/dlq/show-dead-letters.js'
import { summarizeDeadLetters } from '../../application/dlq/summarize-dead-letters.js'
import { dlqToolFor, type DlqTool } from '../../composition/dlq-tool.js'
import type { CommandRun } from '../cli-command.js'
import { runTool } from '../cli-runner.js'
import { DLQ_HELP } from './dlq-help.js'
import { parseDlqArgs, type DlqCommand } from './dlq-args.js'
import { deadLetterText, summaryText } from './dlq-print.js'
import { progressOn } from './progress.js'

const say = (s: string): void => void process.stdout.write(`${s}\n`)
// summary and show read as a group of their own that commits nothing and is never reused
const inspectGroup = () => `dev-stats-dlq-inspect.${randomUUID()}`

const execute = async (command: Exclude<DlqCommand, { name: 'help' }>, tool: DlqTool): Promise<void> => {
  const topics = command.topic ? [command.topic] : tool.sourceTopics
  switch (command.name) {
    case 'summary':
      return say(summaryText(await summarizeDeadLetters(tool.broker, inspectGroup())(topics), topics))
    case 'show': {
      const found = await showDeadLetters(tool.broker, inspectGroup())(command.topic, command.filter, command.limit)
      found.forEach((d) => say(deadLetterText(d)))
      return say(`${found.length} dead letter(s) shown${found.length === command.limit ? ` (--limit ${command.limit})` : ''}`)
    }
    case 'replay': {
      const replay = replayDeadLetters(tool.broker, progressOn(process.stderr), inspectGroup())
      let total = 0
      for (const sourceTopic of topics) {
        const r = await replay({ sourceTopic, filter: command.filter, dryRun: command.dryRun, maxPerSecond: command.maxPerSecond })
        total += command.dryRun ? r.matched : r.replayed
        say(`${sourceTopic}: ${command.dryRun ? `${r.matched} would be replayed` : `${r.replayed} replayed`} (${r.read} read, group ${r.groupId})`)
      }
      return say(command.dryRun ? `dry run: ${total} dead letter(s) would be replayed, nothing published` : `replayed ${total} dead letter(s)`)
    }
  }
}

export const run: CommandRun = (argv, env) =>
  runTool(
    {
      name: 'dlq',
      helpHint: 'dev-stats-ingest dlq --help',
      help: DLQ_HELP,
      parse: (argv) => parseDlqArgs(argv) as Exclude<DlqCommand, { name: 'help' }>,
      open: dlqToolFor,
      run: async (command, tool) => (await execute(command, tool), 0),
    },
    argv,
    env,
  )
