/** Running totals of one engine, for the host (health, the demo) and the funnel's freshness. */
export class EngineStats {
  rowsIngested = 0
  duplicatesDropped = 0
  parked = 0
  recovered = 0
  dimensionGaps = 0
  sinkRetries = 0
  flushes = 0
  /** Largest EventTime → IngestionTime lag of the last flush, in seconds. */
  lastLagSeconds: number | undefined
  readonly deadLetters = new Map<string, number>()
  readonly skipped = new Map<string, number>()

  bump(map: Map<string, number>, reason: string): void {
    map.set(reason, (map.get(reason) ?? 0) + 1)
  }

  get deadLettered(): number {
    return [...this.deadLetters.values()].reduce((a, b) => a + b, 0)
  }
}
