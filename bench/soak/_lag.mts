import kafkajs from 'kafkajs'
import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
const a = new kafkajs.Kafka({ clientId: 'x', brokers: [process.argv[2] as string], logLevel: 0 }).admin()
await a.connect()
for (const c of CONSUMERS) {
  for (const topic of [c.topic, `${c.groupId}.retry`]) {
    const ends = await a.fetchTopicOffsets(topic)
    const [com] = await a.fetchOffsets({ groupId: c.groupId, topics: [topic] })
    const lag = ends.map((e) => { const p = com?.partitions.find((x) => x.partition === e.partition); const o = Number(p?.offset ?? -1); return Number(e.high) - (o < 0 ? Number(e.low) : o) })
    if (lag.some((l) => l !== 0)) console.log(topic, 'lag', lag.join(','), 'high', ends.map(e=>e.high).join(','))
  }
  const { groups: [g] } = await a.describeGroups([c.groupId])
  if (g) console.log(c.groupId, g.state, g.members.map((m) => m.clientId).join(' '))
}
await a.disconnect()
