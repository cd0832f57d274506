// `npm run dlq -- <command>`: inspect and replay dead letters (see dlq-help.ts or `npm run dlq -- help`).
import { randomUUID } from 'node:crypto'
import { replayDeadLetters } from '../../application/dlq/replay-dead-letters.js'
import { showDeadLetters } from '../../application/dlq/show-dead-letters.js'
import { summarizeDeadLetters } from '../../application/dlq/summarize-dead-letters.js'
import { ConfigError, loadConfig, type IngestConfig } from '../../composition/config.js'
import { dlqToolFor, type DlqTool } from '../../composition/dlq-tool.js'
import { explainKafkaFailure } from '../../composition/startup-errors.js'
import { DLQ_HELP } from './dlq-help.js'
import { parseDlqArgs, UsageError, type DlqCommand } from './dlq-args.js'
import { deadLetterText, summaryText } from './dlq-print.js'
import { progressOn } from './progress.js'

const say = (s: string): void => void process.stdout.write(`${s}\n`)
// summary and show read as a group of their own that commits nothing and is never reused
const inspectGroup = () => `dev-stats-dlq-inspect.${randomUUID()}`

const run = async (command: Exclude<DlqCommand, { name: 'help' }>, tool: DlqTool): Promise<void> => {
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

const main = async (): Promise<number> => {
  let command: DlqCommand
  let tool: DlqTool
  let config: IngestConfig
  try {
    command = parseDlqArgs(process.argv.slice(2))
    if (command.name === 'help') return say(DLQ_HELP), 0
    const env = { DEV_STATS_BROKER: 'kafkajs', DEV_STATS_LOG_LEVEL: 'error', ...process.env }
    config = loadConfig(env)
    if (config.broker === 'memory') throw new ConfigError('DEV_STATS_BROKER', 'must be kafkajs or confluent for the dead-letter tool')
    tool = dlqToolFor(config)
  } catch (e) {
    // wrong usage, an invalid setting or the optional librdkafka client missing (its message says how to install it)
    if (!(e instanceof UsageError || e instanceof ConfigError || (e as Error).name === 'ConfluentClientMissing')) throw e
    process.stderr.write(`${(e as Error).message}\n(npm run dlq -- help)\n`)
    return 2
  }
  try {
    await tool.check()
    await run(command, tool)
    return 0
  } catch (e) {
    process.stderr.write(`\ndlq ${command.name} failed: ${explainKafkaFailure(e, config)}\n`)
    return 1
  } finally {
    await tool.close().catch(() => undefined)
  }
}

process.exit(await main())
