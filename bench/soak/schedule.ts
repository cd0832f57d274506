import { Rng } from './random.js'

/** The faults the soak injects (issue 20): each overlaps others on a seeded random schedule. */
export type FaultKind = 'broker-restart' | 'clickhouse-stop' | 'instance-kill' | 'instance-add' | 'instance-term'
export const FAULT_KINDS: readonly FaultKind[] = ['broker-restart', 'clickhouse-stop', 'instance-kill', 'instance-add', 'instance-term']

export interface Fault {
  readonly kind: FaultKind
  /** Milliseconds after the traffic started. */
  readonly atMs: number
  /** clickhouse-stop: how long the server stays down; instance-add: how long the extra instance stays. 0 otherwise. */
  readonly holdMs: number
  /** Which of the base instances (kill, term); the added instance's client (add) by index. */
  readonly instance: number
}

export interface ScheduleSettings {
  readonly seed: number
  readonly minutes: number
  readonly instances: number
}

/** One fault per this many seconds of the run on average, at least one of each kind. */
const MEAN_SPACING_S = 75

/**
 * The fault schedule of a run: every kind at least once, more of random kinds for longer runs,
 * placed uniformly between 10 % and 75 % of the run (so that the last quarter shows the recovery
 * and the memory trend without faults), sorted by time. Overlaps are wanted, not avoided.
 */
export const faultSchedule = ({ seed, minutes, instances }: ScheduleSettings): Fault[] => {
  const rng = new Rng(seed).fork('faults')
  const runMs = minutes * 60_000
  const from = runMs * 0.1
  const to = runMs * 0.75
  const count = Math.max(FAULT_KINDS.length, Math.round((to - from) / 1000 / MEAN_SPACING_S))
  const kinds: FaultKind[] = [...FAULT_KINDS]
  while (kinds.length < count) kinds.push(rng.pick(FAULT_KINDS))
  const faults = kinds.map((kind): Fault => ({
    kind,
    atMs: Math.round(from + rng.next() * (to - from)),
    holdMs: kind === 'clickhouse-stop' ? rng.int(10, 60) * 1000 : kind === 'instance-add' ? rng.int(20, 90) * 1000 : 0,
    instance: rng.int(0, Math.max(0, instances - 1)),
  }))
  return faults.sort((a, b) => a.atMs - b.atMs)
}
