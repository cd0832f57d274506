// --reads RATE: one developer's session metrics read through the read API at RATE calls a second
// while the service catches up its backlog (the read cache off, so that every call reaches the
// store): how reads fare beside the ingest (docs/performance.md, "Reads during a catch-up").
import { randomUUID } from 'node:crypto'
import { signToken } from '../../test/support/tokens.js'

/** The settings a service needs for the reader: an HS256 key, no cache, no rate limit. */
export const READ_SECRET = 'bench-e2e-read-secret-of-at-least-32-bytes'
export const readerEnv = (): Record<string, string> => ({
  DEV_STATS_READ_API_JWT_SECRET: READ_SECRET,
  DEV_STATS_READ_CACHE_ENTRIES: '0',
  DEV_STATS_READ_API_RATE_LIMIT: '0',
})

export interface ReadFigures {
  readonly calls: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  /** Answers other than 200, by status (0: no answer). */
  readonly others: Readonly<Record<string, number>>
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0

export const startReader = async (port: number, rate: number): Promise<{ stop(): Promise<ReadFigures> }> => {
  const token = await signToken({ developer_id: randomUUID() }, new TextEncoder().encode(READ_SECRET), { expiresIn: 3600 })
  const url = `http://127.0.0.1:${port}/v1/session-metrics?from=2026-01-01&to=2026-12-31`
  const latencies: number[] = []
  const others: Record<string, number> = {}
  const inFlight = new Set<Promise<void>>()
  const call = async () => {
    const t0 = performance.now()
    let status = 0
    try {
      const r = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) })
      await r.arrayBuffer()
      status = r.status
    } catch {
      status = 0
    }
    latencies.push(performance.now() - t0)
    if (status !== 200) others[String(status)] = (others[String(status)] ?? 0) + 1
  }
  const timer = setInterval(() => {
    const p = call().finally(() => inFlight.delete(p))
    inFlight.add(p)
  }, 1000 / rate)
  return {
    stop: async () => {
      clearInterval(timer)
      await Promise.all(inFlight)
      const sorted = [...latencies].sort((a, b) => a - b)
      return { calls: sorted.length, p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99), maxMs: sorted.at(-1) ?? 0, others }
    },
  }
}

export const describeReads = (f: ReadFigures): string =>
  `reads ${f.calls}: p50 ${f.p50Ms.toFixed(0)} ms, p99 ${f.p99Ms.toFixed(0)} ms, max ${f.maxMs.toFixed(0)} ms, ` +
  (Object.keys(f.others).length === 0 ? 'every one 200' : `not 200: ${JSON.stringify(f.others)}`)
