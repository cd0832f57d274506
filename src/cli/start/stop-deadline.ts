import { settleWithin } from '../../application/settle-within.js'
import { ConfigError } from '../../index.js'

export const STOP_TIMEOUT = 'DEV_STATS_STOP_TIMEOUT_SECONDS'
const DEFAULT_STOP_TIMEOUT_SECONDS = 50

/** DEV_STATS_STOP_TIMEOUT_SECONDS: how long a SIGTERM may take before the service exits anyway (1–3600, default 50). */
export const stopTimeoutSeconds = (env: NodeJS.ProcessEnv): number => {
  const raw = env[STOP_TIMEOUT]
  if (raw === undefined || raw.trim() === '') return DEFAULT_STOP_TIMEOUT_SECONDS
  const n = /^\d{1,4}$/.test(raw.trim()) ? Number(raw) : Number.NaN
  if (!(n >= 1 && n <= 3600)) throw new ConfigError(STOP_TIMEOUT, `must be a whole number of seconds 1-3600, got "${raw}"`)
  return n
}

/**
 * `stop`, or `onDeadline` once `seconds` have passed. A stop can wait on a broker or store that
 * stopped answering (a half-open connection, a group coordinator that never replies); past the
 * deadline nothing uncommitted is committed: those records come again to whoever takes the
 * partitions, as after a crash.
 */
export const stopWithin = async (seconds: number, stop: Promise<void>, onDeadline: () => void): Promise<'stopped' | 'deadline'> => {
  const outcome = await settleWithin(stop.then(() => 'stopped' as const), seconds * 1000, () => 'deadline' as const)
  if (outcome === 'deadline') onDeadline()
  return outcome
}
