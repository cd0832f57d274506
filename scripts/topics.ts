// `npm run topics`: creates on the cluster at DEV_STATS_KAFKA_BROKERS every topic the consumer
// registry needs (source, `.dlq`, `.retry` of every registered consumer, with the configured
// DEV_STATS_TOPIC_/GROUP_ overrides). Creates what is missing, never deletes, reports both.
//   npm run topics              # provision
//   npm run topics -- --list    # print `<topic> <partitions>` and do nothing
import { topicsToProvision } from '../src/application/consumers/consumer-topics.js'
import { KafkaJsBroker } from '../src/adapters/kafka/kafkajs-broker.js'
import { KafkaJsTopicCatalog } from '../src/adapters/kafka/kafkajs-topic-catalog.js'
import { ConfigError, loadConfig, type IngestConfig } from '../src/composition/config.js'
import { allConsumersOf } from '../src/composition/consumers.js'
import { explainKafkaFailure } from '../src/composition/startup-errors.js'

let config: IngestConfig
try {
  config = loadConfig(process.env)
} catch (e) {
  process.stderr.write(`${e instanceof ConfigError ? e.message : String(e)}\n`)
  process.exit(2)
}
const wanted = topicsToProvision(allConsumersOf(config))
if (process.argv.includes('--list')) {
  for (const t of wanted) console.log(`${t.name} ${t.partitions}`)
  process.exit(0)
}
const where = config.kafka.brokers.join(',')
try {
  await new KafkaJsBroker(config.kafka).checkConnection()
  const { created, existing } = await new KafkaJsTopicCatalog(config.kafka).provision(wanted)
  for (const name of created) console.log(`created  ${name}`)
  console.log(`[topics] ${wanted.length} topics on ${where}: ${created.length} created, ${existing.length} already there`)
} catch (e) {
  process.stderr.write(`[topics] cannot provision topics on ${where} (DEV_STATS_KAFKA_BROKERS): ${explainKafkaFailure(e, config)}\n`)
  process.exit(1)
}
