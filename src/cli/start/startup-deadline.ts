import type { StartupError } from '../../index.js'
import { secondsSetting } from './seconds-setting.js'

export const STARTUP_TIMEOUT = 'DEV_STATS_STARTUP_TIMEOUT_SECONDS'
const DEFAULT_STARTUP_TIMEOUT_SECONDS = 60
const FIRST_WAIT_MS = 1000
const LONGEST_WAIT_MS = 15_000

/** DEV_STATS_STARTUP_TIMEOUT_SECONDS: how long `start` tries again after a network fault at start-up (0–3600, default 60; 0: never). */
export const startupTimeoutSeconds = (env: NodeJS.ProcessEnv): number =>
  secondsSetting(env, STARTUP_TIMEOUT, { min: 0, max: 3600, fallback: DEFAULT_STARTUP_TIMEOUT_SECONDS })

/**
 * The wait before attempt `attempt + 1` when `e` is worth another attempt (a network fault on the
 * way to the broker or the store: reset, silence, an answer cut short) and the deadline allows
 * one; undefined otherwise. 1 s doubling to 15 s, never past the deadline.
 */
export const retryStartIn = (e: StartupError, attempt: number, msLeft: number): number | undefined => {
  if (!e.networkFault || msLeft <= 0) return undefined
  return Math.min(msLeft, LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (attempt - 1))
}
