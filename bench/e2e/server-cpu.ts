import { CLICKHOUSE_URL, KAFKA_BROKERS } from './infra.js'
import { listenerPid, treeCpuSeconds, treeSystemSeconds } from './process-usage.js'

// What the ClickHouse server and the Kafka broker spend serving a contender: their CPU seconds
// (every thread, from /proc) at its start and when its last row is visible. Both serve everyone on
// the machine, so the figure holds only under the integration lock; the bench's own row-count
// polls (one query per 250 ms) are in it for every contender alike.

export interface ServerCpu {
  /** undefined: the server is not a process on this machine (or not visible to us). */
  readonly clickhouse: number | undefined
  /** Of ClickHouse's, the kernel's (creating parts, their files and directories, is mostly that). */
  readonly clickhouseKernel: number | undefined
  readonly kafka: number | undefined
}

const portOf = (hostPort: string, fallback: number): number => {
  const m = /:(\d+)\/?$/.exec(hostPort)
  return m ? Number(m[1]) : fallback
}

const local = (host: string): boolean => /^(127\.|localhost|\[?::1\]?)/.test(host)

/** The servers' pids, found by their listening ports (their pid files live in whichever checkout started them). */
export const serverPids = (): { clickhouse?: number; kafka?: number } => {
  const chUrl = new URL(CLICKHOUSE_URL)
  const broker = KAFKA_BROKERS[0] ?? ''
  return {
    clickhouse: local(chUrl.hostname) ? listenerPid(Number(chUrl.port || 8123)) : undefined,
    kafka: local(broker) ? listenerPid(portOf(broker, 9092)) : undefined,
  }
}

export const serverCpu = (pids: { clickhouse?: number; kafka?: number }): ServerCpu => ({
  clickhouse: pids.clickhouse === undefined ? undefined : treeCpuSeconds(pids.clickhouse),
  clickhouseKernel: pids.clickhouse === undefined ? undefined : treeSystemSeconds(pids.clickhouse),
  kafka: pids.kafka === undefined ? undefined : treeCpuSeconds(pids.kafka),
})

const minus = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a - b)

export const serverCpuSince = (before: ServerCpu, after: ServerCpu): ServerCpu => ({
  clickhouse: minus(after.clickhouse, before.clickhouse),
  clickhouseKernel: minus(after.clickhouseKernel, before.clickhouseKernel),
  kafka: minus(after.kafka, before.kafka),
})

/** ClickHouse's CPU seconds with its kernel share, e.g. `52.8 (44.0)`. */
export const clickhouseCell = (servers: ServerCpu): string =>
  servers.clickhouse === undefined ? '–' : `${servers.clickhouse.toFixed(1)}${servers.clickhouseKernel === undefined ? '' : ` (${servers.clickhouseKernel.toFixed(1)})`}`
