/**
 * Liveness and memory verdicts over the sampled series, pure.
 *
 * Liveness: under steady traffic the committed lag is never exactly 0 (a batch waits up to the
 * flush interval), so "caught up" is lag at or below `threshold` (a few seconds of traffic); at
 * the very end, with the traffic stopped, the lag must reach 0 itself (the drain). Faults that
 * overlap, or start before the lag recovered from the one before, form one episode, measured from
 * its last fault's end.
 */
export interface FaultSpan {
  readonly label: string
  readonly startMs: number
  readonly endMs: number
}

export interface LagSample {
  readonly t: number
  /** null: the broker could not be asked (it was down). */
  readonly lag: number | null
}

export interface Recovery {
  readonly faults: readonly string[]
  readonly endMs: number
  /** When the lag was back at or below the threshold; null if never. */
  readonly recoveredMs: number | null
  readonly pass: boolean
}

export const recoveries = (spans: readonly FaultSpan[], lag: readonly LagSample[], threshold: number, limitMs: number): Recovery[] => {
  const sorted = [...spans].sort((a, b) => a.startMs - b.startMs)
  const out: Recovery[] = []
  let i = 0
  while (i < sorted.length) {
    const first = sorted[i] as FaultSpan
    const labels = [first.label]
    let end = first.endMs
    i++
    for (;;) {
      const recovered = lag.find((s) => s.t >= end && s.lag !== null && s.lag <= threshold)?.t ?? null
      const next = sorted[i]
      // The next fault begins before this episode recovered: it belongs to the episode.
      if (next && (recovered === null || next.startMs < recovered)) {
        labels.push(next.label)
        end = Math.max(end, next.endMs)
        i++
        continue
      }
      out.push({ faults: labels, endMs: end, recoveredMs: recovered, pass: recovered !== null && recovered - end <= limitMs })
      break
    }
  }
  return out
}

export interface RssSample {
  readonly t: number
  readonly mb: number
}

export interface MemoryVerdict {
  readonly instance: string
  readonly fromMs: number
  readonly toMs: number
  readonly startMb: number
  readonly endMb: number
  readonly growth: number
  /** false: the window was too short to judge (an incarnation started late in the run). */
  readonly judged: boolean
  readonly pass: boolean
}

/**
 * RSS growth of one instance's last incarnation where the run is steady: over the last two thirds
 * of the run, after a warm-up if it started later, and after the last fault episode's recovery
 * (a fault moves RSS for a while: backlogs, reconnects, prefetch; a leak keeps growing without
 * one). The median of the window's last fifth against its first fifth, so a short dip (memory
 * given back after a fault, a new process filling up) neither hides nor fakes growth.
 */
export const memoryVerdict = (
  instance: string, samples: readonly RssSample[], runStartMs: number, runEndMs: number,
  o: { warmupMs: number; minWindowMs: number; maxGrowth: number; quietFromMs?: number },
): MemoryVerdict => {
  const incarnationStart = samples[0]?.t ?? runEndMs
  const fromMs = Math.max(runStartMs + (runEndMs - runStartMs) / 3, incarnationStart + o.warmupMs, o.quietFromMs ?? runStartMs)
  const window = samples.filter((s) => s.t >= fromMs && s.t <= runEndMs)
  const fifth = Math.max(1, Math.floor(window.length / 5))
  const startMb = median(window.slice(0, fifth))
  const endMb = median(window.slice(-fifth))
  const judged = runEndMs - fromMs >= o.minWindowMs && window.length >= 5
  const growth = startMb > 0 ? endMb / startMb - 1 : 0
  return { instance, fromMs, toMs: runEndMs, startMb, endMb, growth, judged, pass: !judged || growth <= o.maxGrowth }
}

const median = (xs: readonly RssSample[]): number => {
  const sorted = xs.map((s) => s.mb).sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length === 0 ? 0 : sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
