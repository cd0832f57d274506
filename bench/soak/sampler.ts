import kafkajs from 'kafkajs'
import type { Instance } from './instance.js'
import { increase, parseMetrics, quantile } from './metrics-text.js'

/** The series the report draws, one value per sample (seconds since the traffic started in `t`). */
export interface Series {
  t: number[]
  produced: number[]
  stored: number[]
  lag: (number | null)[]
  /** The group furthest behind: its source-topic lag in seconds of its own traffic (what liveness judges). */
  behind: (number | null)[]
  arrivalP99: (number | null)[]
  dlq: number[]
  parked: number[]
  rss: Record<string, (number | null)[]>
}

export interface LagTarget {
  readonly groupId: string
  readonly source: string
  readonly retry: string
  /** Records/s produced to the source topic. */
  readonly rate: number
}

/**
 * Every `everyMs`: records produced, rows stored and records dead-lettered per second (counters
 * of every incarnation of every instance), arrival-lag p99 over the interval, parked copies in
 * memory, the groups' committed lag on source and retry topics (from the broker), RSS per slot.
 */
export class Sampler {
  readonly series: Series = { t: [], produced: [], stored: [], lag: [], behind: [], arrivalP99: [], dlq: [], parked: [], rss: {} }
  private readonly last = new Map<Instance, { stored: number; dlq: number; buckets: ReadonlyMap<number, number> }>()
  private lastProduced = 0
  private lastAt: number
  private timer: NodeJS.Timeout | undefined
  private busy = false
  private readonly admin: kafkajs.Admin
  private connected = false

  constructor(
    private readonly t0: number,
    brokers: string,
    private readonly targets: readonly LagTarget[],
    private readonly instances: () => readonly Instance[],
    private readonly produced: () => number,
    private readonly everyMs = 5000,
  ) {
    this.lastAt = t0
    this.admin = new kafkajs.Kafka({ clientId: 'dev-stats-soak-sampler', brokers: [brokers], logLevel: kafkajs.logLevel.NOTHING, retry: { retries: 0 } }).admin()
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.busy) return
      this.busy = true
      void this.sample().finally(() => {
        this.busy = false
      })
    }, this.everyMs)
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    while (this.busy) await new Promise((r) => setTimeout(r, 50))
    if (this.connected) await this.admin.disconnect().catch(() => undefined)
  }

  /** The latest total lag read, for the drain. */
  get latestLag(): number | null {
    return this.series.lag.at(-1) ?? null
  }

  /** Takes a sample now (the drain polls instead of waiting for the timer). */
  async sampleNow(): Promise<void> {
    while (this.busy) await new Promise((r) => setTimeout(r, 50))
    this.busy = true
    try {
      await this.sample()
    } finally {
      this.busy = false
    }
  }

  get latestParked(): number {
    return this.series.parked.at(-1) ?? 0
  }

  async sample(): Promise<void> {
    const now = Date.now()
    const seconds = Math.max(0.001, (now - this.lastAt) / 1000)
    this.lastAt = now
    const live = this.instances()
    const [lag, figures] = await Promise.all([this.totalLag(), Promise.all(live.map(async (i) => ({ i, text: await i.metrics() })))])
    let stored = 0
    let dlq = 0
    let parked = 0
    const bucketGrowth = new Map<number, number>()
    for (const { i, text } of figures) {
      if (text === undefined) continue
      const f = parseMetrics(text)
      const before = this.last.get(i)
      stored += increase(before?.stored, f.stored)
      dlq += increase(before?.dlq, f.deadLettered)
      parked += f.parkedInMemory
      for (const [le, c] of f.arrivalBuckets) bucketGrowth.set(le, (bucketGrowth.get(le) ?? 0) + increase(before?.buckets.get(le), c))
      this.last.set(i, { stored: f.stored, dlq: f.deadLettered, buckets: f.arrivalBuckets })
    }
    const producedNow = this.produced()
    const s = this.series
    s.t.push(Math.round((now - this.t0) / 100) / 10)
    s.produced.push(Math.round((producedNow - this.lastProduced) / seconds))
    this.lastProduced = producedNow
    s.stored.push(Math.round(stored / seconds))
    s.dlq.push(Math.round((dlq / seconds) * 10) / 10)
    s.parked.push(parked)
    s.lag.push(lag?.total ?? null)
    s.behind.push(lag === null ? null : Math.round(lag.behind * 10) / 10)
    s.arrivalP99.push(quantile(0.99, bucketGrowth))
    const n = s.t.length
    for (const i of live) {
      const column = (s.rss[i.slot] ??= [])
      while (column.length < n - 1) column.push(null)
      const mb = i.rssMb()
      column.push(mb === undefined ? null : Math.round(mb * 10) / 10)
    }
    for (const column of Object.values(s.rss)) while (column.length < n) column.push(null)
  }

  /**
   * Committed lag of every group on its source and retry topic (total), and the source lag of the
   * group furthest behind in seconds of its traffic; null when the broker does not answer.
   */
  private async totalLag(): Promise<{ total: number; behind: number } | null> {
    try {
      if (!this.connected) {
        await this.admin.connect()
        this.connected = true
      }
      const topics = [...new Set(this.targets.flatMap((t) => [t.source, t.retry]))]
      const ends = new Map<string, Map<number, { high: bigint; low: bigint }>>()
      await Promise.all(topics.map(async (topic) => {
        const offsets = await this.admin.fetchTopicOffsets(topic)
        ends.set(topic, new Map(offsets.map((o) => [o.partition, { high: BigInt(o.high), low: BigInt(o.low) }])))
      }))
      let total = 0
      let behind = 0
      await Promise.all(this.targets.map(async (target) => {
        const committed = await this.admin.fetchOffsets({ groupId: target.groupId, topics: [target.source, target.retry] })
        for (const { topic, partitions } of committed) {
          let lag = 0n
          for (const p of partitions) {
            const end = ends.get(topic)?.get(p.partition)
            if (!end) continue
            const c = BigInt(p.offset)
            lag += end.high - (c < 0n ? end.low : c)
          }
          total += Number(lag)
          if (topic === target.source) behind = Math.max(behind, Number(lag) / Math.max(0.5, target.rate))
        }
      }))
      return { total, behind }
    } catch {
      if (this.connected) await this.admin.disconnect().catch(() => undefined)
      this.connected = false
      return null
    }
  }
}
