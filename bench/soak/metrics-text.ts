/** What the soak reads from one instance's Prometheus text (/metrics), summed over consumers. */
export interface InstanceFigures {
  /** Rows inserted into every table (dev_stats_<table>_ingested_total). */
  readonly stored: number
  readonly deadLettered: number
  readonly parkedInMemory: number
  /** dev_stats_arrival_lag_seconds cumulative buckets: upper bound → count. */
  readonly arrivalBuckets: ReadonlyMap<number, number>
}

const LINE = /^([a-z_]+)(?:\{([^}]*)\})? ([0-9.eE+-]+|NaN|\+Inf)$/

export const parseMetrics = (text: string): InstanceFigures => {
  let stored = 0
  let deadLettered = 0
  let parkedInMemory = 0
  const arrivalBuckets = new Map<number, number>()
  for (const line of text.split('\n')) {
    const m = LINE.exec(line)
    if (!m) continue
    const [, name, labels = '', raw] = m as unknown as [string, string, string | undefined, string]
    const value = Number(raw)
    if (/^dev_stats_[a-z_]+_ingested_total$/.test(name as string)) stored += value
    else if (name === 'dev_stats_dlq_total') deadLettered += value
    else if (name === 'dev_stats_parked_in_memory') parkedInMemory += value
    else if (name === 'dev_stats_arrival_lag_seconds_bucket') {
      const le = /le="([^"]+)"/.exec(labels)?.[1]
      const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le)
      arrivalBuckets.set(bound, (arrivalBuckets.get(bound) ?? 0) + value)
    }
  }
  return { stored, deadLettered, parkedInMemory, arrivalBuckets }
}

/** A counter's growth since the last reading; a restarted process starts again from 0. */
export const increase = (before: number | undefined, now: number): number => (before === undefined || now < before ? now : now - before)

/**
 * The q-quantile of the observations between two readings of cumulative buckets, interpolated
 * inside the bucket as Prometheus' histogram_quantile does; null without observations.
 */
export const quantile = (q: number, buckets: ReadonlyMap<number, number>): number | null => {
  const bounds = [...buckets.keys()].sort((a, b) => a - b)
  const total = buckets.get(Number.POSITIVE_INFINITY) ?? 0
  if (total <= 0) return null
  const rank = q * total
  let lowerBound = 0
  let lowerCount = 0
  for (const b of bounds) {
    const c = buckets.get(b) ?? 0
    if (c >= rank) {
      if (b === Number.POSITIVE_INFINITY) return lowerBound
      return lowerBound + ((b - lowerBound) * (rank - lowerCount)) / Math.max(1e-9, c - lowerCount)
    }
    lowerBound = b
    lowerCount = c
  }
  return lowerBound
}
