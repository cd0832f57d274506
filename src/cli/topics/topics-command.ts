// `dev-stats-ingest topics` (npm run topics): creates on the cluster at DEV_STATS_KAFKA_BROKERS every
// topic the consumer registry needs (source, `.dlq`, `.retry` of every registered consumer, with the
// DEV_STATS_TOPIC_/GROUP_ overrides). Creates what is missing, never deletes, reports both.
import { topicsToProvision } from '../../application/consumers/consumer-topics.js'
import { KafkaJsBroker } from '../../adapters/kafka/kafkajs/kafkajs-broker.js'
import { KafkaJsTopicCatalog } from '../../adapters/kafka/kafkajs/kafkajs-topic-catalog.js'
import { loadConfig, type IngestConfig } from '../../composition/config.js'
import { allConsumersOf } from '../../composition/consumers.js'
import { explainKafkaFailure } from '../../composition/startup-errors.js'
import { flagCommand } from '../cli-command.js'

const HELP = `dev-stats-ingest topics [--list]

Creates the topics every registered consumer needs (its source topic, <source>.dlq and
<group>.retry, with the DEV_STATS_TOPIC_<KEY>/DEV_STATS_GROUP_<KEY> overrides) that the cluster
lacks: partitions as the registry says, replication factor 1 per broker up to 3. Never deletes
or alters a topic. Uses kafkajs' admin client with the DEV_STATS_KAFKA_* connection and security
settings.

  --list   print "<topic> <partitions>" for each topic it would create; connect to nothing

Exit codes: 0 done; 1 the broker failed; 2 wrong usage or an invalid setting.`

const say = (s: string): void => void process.stdout.write(`${s}\n`)

const provision = async (config: IngestConfig): Promise<number> => {
  const wanted = topicsToProvision(allConsumersOf(config))
  const where = config.kafka.brokers.join(',')
  try {
    await new KafkaJsBroker(config.kafka).checkConnection()
    const { created, existing } = await new KafkaJsTopicCatalog(config.kafka).provision(wanted)
    for (const name of created) say(`created  ${name}`)
    say(`[topics] ${wanted.length} topics on ${where}: ${created.length} created, ${existing.length} already there`)
    return 0
  } catch (e) {
    process.stderr.write(`[topics] cannot provision topics on ${where} (DEV_STATS_KAFKA_BROKERS): ${explainKafkaFailure(e, config)}\n`)
    return 1
  }
}

export const run = flagCommand({
  name: 'topics',
  help: HELP,
  options: { list: { type: 'boolean' } },
  run: async (values, env) => {
    const config = loadConfig(env)
    if (!values.list) return provision(config)
    for (const t of topicsToProvision(allConsumersOf(config))) say(`${t.name} ${t.partitions}`)
    return 0
  },
})
