// ad-hoc: feed a new developer's events to the local broker, then read them through the API
import { Kafka } from 'kafkajs'
import { SignJWT } from 'jose'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewEndedPayload } from './test/support/events.js'
import { PROPERTY_OBJECT_UPSERTED_TOPIC } from './src/application/handlers/property-object-upserted.handler.js'
import { SESSION_ENDED_TOPIC } from './src/application/handlers/session-ended.handler.js'
import { VIEW_ENDED_TOPIC } from './src/application/handlers/view-ended.handler.js'

const secret = process.env.DEV_STATS_READ_API_JWT_SECRET as string
const developerId = guid()
const p = path(developerId)
const kafka = new Kafka({ brokers: ['127.0.0.1:19092'], logLevel: 0 })
const producer = kafka.producer()
await producer.connect()
const send = async (r: ReturnType<typeof binaryRecord>) => producer.send({ topic: r.topic, messages: [{ key: r.key ? Buffer.from(r.key) : null, value: Buffer.from(r.value as Uint8Array), headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)])) }] })
await send(binaryRecord(PROPERTY_OBJECT_UPSERTED_TOPIC, propertyObjectUpsertedPayload(p)))
const sessions = [guid(), guid()]
await send(binaryRecord(SESSION_ENDED_TOPIC, sessionEndedPayload({ SessionId: sessions[0], CreatedAt: '2026-11-20T23:50:00Z', LastActivityAt: '2026-11-21T00:20:00Z', DurationSeconds: 1800 })))
await send(binaryRecord(VIEW_ENDED_TOPIC, viewEndedPayload(p, sessions[0] as string, { ViewedAt: '2026-11-20T23:55:00Z', LastActivityAt: '2026-11-20T23:58:00Z' })))
await send(binaryRecord(VIEW_ENDED_TOPIC, viewEndedPayload(p, sessions[0] as string, { ViewedAt: '2026-11-21T00:05:00Z', LastActivityAt: '2026-11-21T00:10:00Z' })))
await send(binaryRecord(VIEW_ENDED_TOPIC, viewEndedPayload(p, sessions[1] as string, { ViewedAt: '2026-11-25T10:00:00Z', LastActivityAt: '2026-11-25T10:05:00Z' })))
await send(binaryRecord(SESSION_ENDED_TOPIC, sessionEndedPayload({ SessionId: sessions[1], CreatedAt: '2026-11-25T09:59:00Z', LastActivityAt: '2026-11-25T10:06:00Z', DurationSeconds: 420 })))
await producer.disconnect()
const token = await new SignJWT({ developer_id: developerId }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret))
const read = async (q: string) => (await fetch(`http://127.0.0.1:${process.env.PORT ?? 9464}/v1/session-metrics?${q}`, { headers: { authorization: `Bearer ${token}` } })).json()
for (let i = 0; i < 60; i++) {
  const r = (await read('from=2026-11-01&to=2026-11-30')) as { sessions?: number; views?: { views: number } }
  if (r.sessions === 2 && r.views?.views === 3) break
  await new Promise((res) => setTimeout(res, 1000))
}
console.log('november', JSON.stringify(await read('from=2026-11-01&to=2026-11-30')))
console.log('from the 21st', JSON.stringify(await read('from=2026-11-21&to=2026-11-30')))
console.log('the 25th', JSON.stringify(await read('from=2026-11-25&to=2026-11-25')))
