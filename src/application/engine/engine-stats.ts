/** The last failed insert, publish or lookup of an engine, as the host's health check shows it. */
export interface EngineFailure {
  readonly what: string
  readonly message: string
  readonly retriable: boolean
}

/** Running totals of one engine, for the host (health, the demo) and the funnel's freshness. */
export class EngineStats {
  rowsIngested = 0
  duplicatesDropped = 0
  parked = 0
  recovered = 0
  dimensionGaps = 0
  /** Of those, dead-lettered after the maximum wait without the progress proving the gap. */
  unprovenGaps = 0
  sinkRetries = 0
  flushes = 0
  /** Records per batch when it last changed (catching up); 0 until then. */
  batchRows = 0
  /** Largest EventTime → IngestionTime lag of the last flush, in seconds. */
  lastLagSeconds: number | undefined
  /** Epoch ms of the last successful offset commit. */
  lastCommitAt?: number
  /** Epoch ms since which the current insert/publish keeps failing; undefined when not retrying. */
  retryingSince?: number
  /** The most recent failure (kept after recovery; compare with retryingSince). */
  lastFailure?: EngineFailure
  readonly deadLetters = new Map<string, number>()
  readonly skipped = new Map<string, number>()

  bump(map: Map<string, number>, reason: string): void {
    map.set(reason, (map.get(reason) ?? 0) + 1)
  }

  get deadLettered(): number {
    return [...this.deadLetters.values()].reduce((a, b) => a + b, 0)
  }
}
