import type { ClickHouseClient } from '@clickhouse/client'
import { indexOf, runId } from './records.js'

export interface Verdict {
  /** Rows in the table (redeliveries included). */
  readonly rows: number
  /** Distinct FactIds of this run. */
  readonly distinct: number
  readonly missing: number
  /** Rows whose FactId this run never produced. */
  readonly foreign: number
  /** Event-to-visible latency in seconds (steady mode only). */
  readonly p50?: number
  readonly p99?: number
}

export const exactlyOnce = (v: Verdict, n: number): boolean => v.distinct === n && v.missing === 0 && v.foreign === 0

/**
 * Reads every FactId back with its IngestionTime and checks that each of the `n` records is there
 * (logically once: redelivered copies share the FactId). With send times, the latency of a record
 * is its first IngestionTime minus its send time; IngestionTime has whole seconds, so its second
 * is rounded up (an upper bound). `onlyThisRun`: the table held rows before (a store history),
 * which are not this run's and not foreign.
 */
export const verify = async (ch: ClickHouseClient, table: string, n: number, sentAt?: Float64Array, onlyThisRun = false): Promise<Verdict> => {
  const firstSeen = new Float64Array(n).fill(Number.POSITIVE_INFINITY)
  let rows = 0
  let foreign = 0
  // a store with history (bench:e2e --history) holds other rows: only this run's FactIds are read
  const where = onlyThisRun ? ` WHERE FactId LIKE '${runId}-%'` : ''
  const result = await ch.query({ query: `SELECT FactId, toUnixTimestamp(IngestionTime) FROM ${table}${where}`, format: 'TabSeparated' })
  for await (const batch of result.stream()) {
    for (const row of batch) {
      const [factId, seconds] = row.text.split('\t') as [string, string]
      rows++
      const i = indexOf(factId)
      if (i < 0 || i >= n) {
        foreign++
        continue
      }
      firstSeen[i] = Math.min(firstSeen[i] as number, (Number(seconds) + 1) * 1000)
    }
  }
  let missing = 0
  const latencies: number[] = []
  for (let i = 0; i < n; i++) {
    const seen = firstSeen[i] as number
    if (seen === Number.POSITIVE_INFINITY) missing++
    else if (sentAt) latencies.push((seen - (sentAt[i] as number)) / 1000)
  }
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
  return { rows, distinct: n - missing, missing, foreign, ...(sentAt && latencies.length ? { p50: at(0.5), p99: at(0.99) } : {}) }
}
