import { randomBytes } from 'node:crypto'
import kafkajs from 'kafkajs'
import { binaryRecord, sessionEndedPayload } from '../../test/support/events.js'

// session-ended records with CloudEvents headers, as test/support builds them, but with ids that
// carry their index: ce_id (the FactId) and SessionId map back to the record without a lookup
// table, so a 1,000,000-record check needs no per-record memory beyond a bitmap.

const RUN = randomBytes(4).toString('hex')
const hex12 = (i: number) => i.toString(16).padStart(12, '0')

export const messageIdOf = (i: number): string => `${RUN}-0000-4000-8000-${hex12(i)}`
export const sessionIdOf = (i: number): string => `${RUN}-0001-4000-8000-${hex12(i)}`
/** The record index of a FactId or SessionId this run produced, or -1 for anything else. */
export const indexOf = (id: string): number => (id.startsWith(RUN) ? Number.parseInt(id.slice(24), 16) : -1)
export const runId = RUN

/** The session-ended payload of record `i` (the floor decodes the same ones: bench/floor.ts). */
export const payloadOf = (i: number, createdAt: string): Record<string, unknown> =>
  sessionEndedPayload({
    SessionId: sessionIdOf(i),
    UserId: i % 3 === 0 ? null : sessionEndedPayload().UserId,
    CreatedAt: createdAt,
    LastActivityAt: new Date().toISOString(),
    DurationSeconds: i % 3600,
  })

const message = (topic: string, i: number, createdAt: string) => {
  const sessionId = sessionIdOf(i)
  const r = binaryRecord(topic, payloadOf(i, createdAt), { messageId: messageIdOf(i), key: sessionId, headers: { ce_type: 'session-ended' } })
  return { key: Buffer.from(r.key as Uint8Array), value: Buffer.from(r.value as Uint8Array), headers: r.headers }
}

export interface Producer {
  /** Sends records [from, to) and resolves when the broker acknowledged them. */
  send(from: number, to: number): Promise<void>
  close(): Promise<void>
}

export const producer = async (brokers: readonly string[], topic: string): Promise<Producer> => {
  const kafka = new kafkajs.Kafka({ clientId: 'dev-stats-bench', brokers: [...brokers], logLevel: kafkajs.logLevel.NOTHING })
  const p = kafka.producer({ allowAutoTopicCreation: false })
  await p.connect()
  const createdAt = new Date(Date.now() - 3_600_000).toISOString()
  return {
    send: async (from, to) => {
      const chunks: Promise<unknown>[] = []
      for (let i = from; i < to; i += 2000) {
        const messages = []
        for (let j = i; j < Math.min(to, i + 2000); j++) messages.push(message(topic, j, createdAt))
        chunks.push(p.send({ topic, messages, acks: 1 }))
        if (chunks.length >= 4) await Promise.all(chunks.splice(0))
      }
      await Promise.all(chunks)
    },
    close: () => p.disconnect(),
  }
}

/**
 * Produces `total` records at `perSecond` in 100 ms ticks. Returns each record's scheduled send
 * time (epoch ms): a producer falling behind schedule counts against the latency, not for it.
 */
export const produceSteadily = async (p: Producer, total: number, perSecond: number): Promise<Float64Array> => {
  const sentAt = new Float64Array(total)
  const started = Date.now()
  let sent = 0
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * perSecond))
    if (due > sent) {
      for (let i = sent; i < due; i++) sentAt[i] = started + (i * 1000) / perSecond
      await p.send(sent, due)
      sent = due
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return sentAt
}
