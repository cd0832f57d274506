import { Rng } from './random.js'

/** The faults the soak injects (issue 20): each overlaps others on a seeded random schedule. */
export type ProcessFaultKind = 'broker-restart' | 'clickhouse-stop' | 'instance-kill' | 'instance-add' | 'instance-term'
export const FAULT_KINDS: readonly ProcessFaultKind[] = ['broker-restart', 'clickhouse-stop', 'instance-kill', 'instance-add', 'instance-term']
/** Faults on the wire (issue 36), through Toxiproxy, on the service's ClickHouse link or its Kafka link. */
export type WireFaultKind = 'wire-latency' | 'wire-bandwidth' | 'wire-timeout' | 'wire-reset' | 'wire-limit-data'
export const WIRE_FAULT_KINDS: readonly WireFaultKind[] = ['wire-latency', 'wire-bandwidth', 'wire-timeout', 'wire-reset', 'wire-limit-data']
export type FaultKind = ProcessFaultKind | WireFaultKind
export type Link = 'clickhouse' | 'kafka'
export const LINKS: readonly Link[] = ['clickhouse', 'kafka']

/** A wire fault's toxic, drawn with the schedule (Toxiproxy's attribute names and units: ms, KB/s, bytes). */
export interface WireToxic {
  readonly link: Link
  readonly type: 'latency' | 'bandwidth' | 'timeout' | 'reset_peer' | 'limit_data'
  readonly attributes: Readonly<Record<string, number>>
}

export interface Fault {
  readonly kind: FaultKind
  /** Milliseconds after the traffic started. */
  readonly atMs: number
  /** clickhouse-stop: how long the server stays down; instance-add: how long the extra instance stays. 0 otherwise. */
  readonly holdMs: number
  /** Which of the base instances (kill, term); the added instance's client (add) by index. */
  readonly instance: number
  /** Wire faults only: the toxic, held for `holdMs`. */
  readonly toxic?: WireToxic
}

export interface ScheduleSettings {
  readonly seed: number
  readonly minutes: number
  readonly instances: number
  /** Adds every wire fault kind on each link, at least once, to the process faults. */
  readonly networkFaults?: boolean
}

/** One fault per this many seconds of the run on average, at least one of each kind. */
const MEAN_SPACING_S = 75

/**
 * The fault schedule of a run: every kind at least once, more of random kinds for longer runs,
 * placed uniformly between 10 % and 75 % of the run (so that the last quarter shows the recovery
 * and the memory trend without faults), sorted by time. Overlaps are wanted, not avoided.
 */
export const faultSchedule = ({ seed, minutes, instances, networkFaults = false }: ScheduleSettings): Fault[] => {
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
  return [...faults, ...(networkFaults ? wireFaults(seed, minutes) : [])].sort((a, b) => a.atMs - b.atMs)
}

/**
 * Every wire kind on each link at least once (a separate random source, so that a seed's process
 * faults stay the same with or without them), more for longer runs, in the same 10–75 % window.
 * Held 10–90 s (a short run: at most 15 % of it), latency 200 ms–5 s with jitter up to half.
 */
const wireFaults = (seed: number, minutes: number): Fault[] => {
  const rng = new Rng(seed).fork('wire-faults')
  const runMs = minutes * 60_000
  const [from, to] = [runMs * 0.1, runMs * 0.75]
  const pairs = LINKS.flatMap((link) => WIRE_FAULT_KINDS.map((kind) => ({ kind, link })))
  const count = Math.max(pairs.length, Math.round((to - from) / 1000 / MEAN_SPACING_S))
  while (pairs.length < count) pairs.push({ kind: rng.pick(WIRE_FAULT_KINDS), link: rng.pick(LINKS) })
  const maxHoldS = Math.max(10, Math.min(90, Math.round((runMs * 0.15) / 1000)))
  return pairs.map(({ kind, link }): Fault => ({
    kind,
    atMs: Math.round(from + rng.next() * (to - from)),
    holdMs: rng.int(10, maxHoldS) * 1000,
    instance: 0,
    toxic: toxicOf(kind, link, rng),
  }))
}

const toxicOf = (kind: WireFaultKind, link: Link, rng: Rng): WireToxic => {
  switch (kind) {
    case 'wire-latency': {
      const latency = rng.int(200, 5000)
      return { link, type: 'latency', attributes: { latency, jitter: rng.int(0, Math.floor(latency / 2)) } }
    }
    case 'wire-bandwidth':
      return { link, type: 'bandwidth', attributes: { rate: rng.int(8, 256) } }
    case 'wire-timeout':
      // 0: the connection stays open and carries nothing until the toxic is removed (half-open).
      return { link, type: 'timeout', attributes: { timeout: 0 } }
    case 'wire-reset':
      return { link, type: 'reset_peer', attributes: { timeout: rng.int(0, 2000) } }
    case 'wire-limit-data':
      return { link, type: 'limit_data', attributes: { bytes: link === 'clickhouse' ? rng.int(50, 20_000) : rng.int(500, 200_000) } }
  }
}
