import { createWriteStream, type WriteStream } from 'node:fs'
import kafkajs from 'kafkajs'
import type { LedgerEntry } from './ledger-entry.js'
import type { Produced, TrafficModel } from './traffic.js'

/** The entry without its empty fields (ClickHouse fills them in): an hour's ledger is half the size. */
const compact = (entry: object): string => JSON.stringify(entry, (_k, v: unknown) => (v === '' || v === 0 ? undefined : v))

/**
 * Feeds the traffic model's records to the broker at the set rate. Every record is written to the
 * ledger when it is made; sends that fail (the broker restarting) stay queued and are sent again,
 * so a record in the ledger always reaches Kafka (maybe twice, which the ledger allows).
 */
export class SoakProducer {
  acked = 0
  sendFailures = 0
  private queue: Produced[] = []
  private readonly ledger: WriteStream
  private readonly producer: kafkajs.Producer
  private timer: NodeJS.Timeout | undefined
  private sending: Promise<void> | undefined
  private owed = 0
  private last = 0
  private generating = false

  constructor(
    brokers: string,
    ledgerFile: string,
    private readonly model: TrafficModel,
    private readonly rate: number,
    /** Sees every ledger entry as it is made (the reader's truth). */
    private readonly observe: (entry: LedgerEntry) => void = () => undefined,
  ) {
    this.ledger = createWriteStream(ledgerFile)
    const kafka = new kafkajs.Kafka({ clientId: 'dev-stats-soak-producer', brokers: [brokers], logLevel: kafkajs.logLevel.NOTHING, retry: { retries: 3, initialRetryTime: 300 } })
    this.producer = kafka.producer({ allowAutoTopicCreation: false })
  }

  get queued(): number {
    return this.queue.length
  }

  async start(bootstrapObjects: number): Promise<void> {
    await this.producer.connect()
    this.enqueue(this.model.bootstrap(Date.now(), bootstrapObjects))
    this.last = Date.now()
    this.generating = true
    this.timer = setInterval(() => this.tick(), 100)
  }

  /** No new traffic; the late upserts still owed are made now. */
  stopGenerating(): void {
    this.generating = false
    this.enqueue(this.model.due(Number.POSITIVE_INFINITY))
  }

  /** Resolves when every queued record is acknowledged. */
  async flushed(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (this.queue.length > 0 || this.sending) {
      if (Date.now() > deadline) throw new Error(`${this.queue.length} records still unsent after ${timeoutMs} ms`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await new Promise<void>((r) => this.ledger.end(r))
    await this.producer.disconnect().catch(() => undefined)
  }

  private enqueue(ps: readonly Produced[]): void {
    for (const p of ps) {
      this.ledger.write(`${compact(p.entry)}\n`)
      this.observe(p.entry)
      this.queue.push(p)
    }
  }

  private tick(): void {
    const now = Date.now()
    if (this.generating) {
      this.owed += ((now - this.last) / 1000) * this.rate
      // While the broker is away the backlog stays bounded: the traffic pauses at 60 s worth.
      const room = Math.max(0, this.rate * 60 - this.queue.length)
      const n = Math.min(Math.floor(this.owed), room)
      this.owed -= Math.floor(this.owed)
      this.enqueue(this.model.due(now))
      this.enqueue(this.model.next(now, n))
    }
    this.last = now
    this.sending ??= this.send().finally(() => {
      this.sending = undefined
    })
  }

  private async send(): Promise<void> {
    while (this.queue.length > 0) {
      const chunk = this.queue.slice(0, 2000)
      const byTopic = new Map<string, kafkajs.Message[]>()
      for (const { record } of chunk) {
        const messages = byTopic.get(record.topic) ?? []
        messages.push({ key: record.key, value: record.value, headers: record.headers })
        byTopic.set(record.topic, messages)
      }
      try {
        await this.producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) })
      } catch {
        this.sendFailures++
        return // sent again on the next tick
      }
      this.queue = this.queue.slice(chunk.length)
      this.acked += chunk.length
    }
  }
}
