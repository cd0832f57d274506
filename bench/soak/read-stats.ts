import type { ReadSample } from './reader.js'
import type { FaultSpan } from './verdicts.js'

/** The reads made while one kind of fault was active (or none was): latency and how they were answered. */
export interface ReadRow {
  readonly during: string
  readonly calls: number
  readonly p50Ms: number | null
  readonly p99Ms: number | null
  /** Shares of the calls answered 200 and 503 (the rest: findings). */
  readonly ok: number
  readonly unavailable: number
}

/** Nearest-rank quantile of sorted values. */
const rank = (sorted: readonly number[], q: number): number | null =>
  sorted.length === 0 ? null : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number)

/** A span's kind: `clickhouse-stop`, or `wire-timeout kafka` for a wire fault (its link kept). */
export const kindOf = (label: string): string => {
  const [kind, link] = label.split(' ')
  return kind?.startsWith('wire-') ? `${kind} ${link}` : (kind as string)
}

const row = (during: string, samples: readonly ReadSample[]): ReadRow => {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
  const share = (status: number) => (samples.length ? samples.filter((s) => s.status === status).length / samples.length : 0)
  return { during, calls: samples.length, p50Ms: rank(ms, 0.5), p99Ms: rank(ms, 0.99), ok: share(200), unavailable: share(503) }
}

/**
 * One row per fault kind (a call counts for every kind active when it started), one for calls
 * with no fault active, one for all; calls to an instance being stopped are left out.
 */
export const readsByFault = (samples: readonly ReadSample[], spans: readonly FaultSpan[]): ReadRow[] => {
  const answered = samples.filter((s) => s.status !== 'gone')
  const byKind = new Map<string, ReadSample[]>()
  const quiet: ReadSample[] = []
  for (const s of answered) {
    const kinds = new Set(spans.filter((f) => f.startMs <= s.atMs && s.atMs < f.endMs).map((f) => kindOf(f.label)))
    if (kinds.size === 0) quiet.push(s)
    for (const k of kinds) byKind.set(k, [...(byKind.get(k) ?? []), s])
  }
  return [
    ...[...byKind].sort(([a], [b]) => a.localeCompare(b)).map(([k, ss]) => row(k, ss)),
    row('no fault', quiet),
    row('all', answered),
  ]
}

/** One instance's reads made while no fault was active, against the limits. */
export interface QuietReads {
  readonly instance: string
  readonly calls: number
  readonly unavailable: number
  readonly share: number
  readonly p99Ms: number | null
  /** The latency limit applies (runs long enough to measure it: QuietLimits.judgeLatency). */
  readonly latencyJudged: boolean
  readonly pass: boolean
}

export interface QuietLimits {
  /** Above this share of 503 the read path refuses work on a healthy system. */
  readonly max503Share: number
  /** p99 above this fails the run where `judgeLatency`. */
  readonly maxP99Ms: number
  readonly judgeLatency: boolean
}

/**
 * Per instance slot: of its answered reads started with no fault active, the share that were 503
 * and the p99 latency. Either past its limit fails the run.
 */
export const quietReads = (samples: readonly ReadSample[], spans: readonly FaultSpan[], limits: QuietLimits): QuietReads[] => {
  const bySlot = new Map<string, ReadSample[]>()
  for (const s of samples) {
    if (s.status === 'gone' || spans.some((f) => f.startMs <= s.atMs && s.atMs < f.endMs)) continue
    bySlot.set(s.instance, [...(bySlot.get(s.instance) ?? []), s])
  }
  return [...bySlot].sort(([a], [b]) => a.localeCompare(b)).map(([instance, ss]) => {
    const unavailable = ss.filter((s) => s.status === 503).length
    const share = unavailable / ss.length
    const p99Ms = rank(ss.map((s) => s.ms).sort((a, b) => a - b), 0.99)
    const fast = !limits.judgeLatency || (p99Ms ?? 0) <= limits.maxP99Ms
    return { instance, calls: ss.length, unavailable, share, p99Ms, latencyJudged: limits.judgeLatency, pass: share <= limits.max503Share && fast }
  })
}

/** p50 and p99 latency per `bucketS` seconds, for the chart (null where no call started). */
export const readLatencySeries = (samples: readonly ReadSample[], bucketS: number, endS: number) => {
  const t: number[] = []
  const p50: (number | null)[] = []
  const p99: (number | null)[] = []
  for (let from = 0; from < endS; from += bucketS) {
    const ms = samples.filter((s) => s.status !== 'gone' && s.atMs >= from * 1000 && s.atMs < (from + bucketS) * 1000).map((s) => s.ms).sort((a, b) => a - b)
    t.push(from + bucketS)
    p50.push(rank(ms, 0.5))
    p99.push(rank(ms, 0.99))
  }
  return { t, p50, p99 }
}
