import { settleWithin } from '../../application/settle-within.js'
import { secondsSetting } from './seconds-setting.js'

export const STOP_TIMEOUT = 'DEV_STATS_STOP_TIMEOUT_SECONDS'
const DEFAULT_STOP_TIMEOUT_SECONDS = 50

/** DEV_STATS_STOP_TIMEOUT_SECONDS: how long a SIGTERM may take before the service exits anyway (1–3600, default 50). */
export const stopTimeoutSeconds = (env: NodeJS.ProcessEnv): number =>
  secondsSetting(env, STOP_TIMEOUT, { min: 1, max: 3600, fallback: DEFAULT_STOP_TIMEOUT_SECONDS })

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
