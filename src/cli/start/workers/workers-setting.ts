import type { IngestConfig } from '../../../composition/config.js'
import { ConfigError } from '../../../index.js'

export const WORKERS = 'DEV_STATS_WORKERS'
export const MAX_WORKERS = 64

/** How many ingest processes `start` runs, and where that was said (named in an error). */
export interface WorkersSetting {
  /** A count, or `auto`: one a CPU, capped by the partitions. */
  readonly workers: number | 'auto'
  readonly from: '--workers' | typeof WORKERS
}

const parse = (from: WorkersSetting['from'], raw: string): WorkersSetting => {
  const value = raw.trim()
  if (value === 'auto') return { workers: 'auto', from }
  const n = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= 1 && n <= MAX_WORKERS)) throw new ConfigError(from, `must be a whole number 1-${MAX_WORKERS} or auto, got "${raw}"`)
  return { workers: n, from }
}

/** `--workers`, else DEV_STATS_WORKERS, else 1; ConfigError (exit 2) for anything but 1–64 or `auto`. */
export const workersSetting = (flag: string | undefined, env: NodeJS.ProcessEnv): WorkersSetting => {
  if (flag !== undefined) return parse('--workers', flag)
  const raw = env[WORKERS]
  return raw === undefined || raw.trim() === '' ? { workers: 1, from: WORKERS } : parse(WORKERS, raw)
}

/**
 * `auto`: one worker a CPU, but no more than the most partitions one consumer group reads; each
 * worker is a member of every group, and a member beyond a group's partitions gets none of it.
 */
export const workerCount = (setting: WorkersSetting, cpus: number, largestPartitionCount: number): number =>
  setting.workers === 'auto' ? Math.max(1, Math.min(cpus, largestPartitionCount)) : setting.workers

/**
 * Several processes share the consumer groups and the store: that takes Kafka and a ClickHouse
 * server. The in-memory broker and store would be one each per process, and the embedded store's
 * files belong to one process.
 */
export const refuseUnshared = (setting: WorkersSetting, config: Pick<IngestConfig, 'broker' | 'store'>): void => {
  if (config.broker !== 'memory' && config.store === 'clickhouse') return
  throw new ConfigError(setting.from, `above 1 needs DEV_STATS_BROKER kafkajs or confluent and DEV_STATS_STORE clickhouse, which every worker shares; got broker ${config.broker}, store ${config.store}`)
}
