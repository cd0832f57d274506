import { describe, expect, it } from 'vitest'
import { retryStartIn, startupTimeoutSeconds } from '../../../src/cli/start/startup-deadline.js'
import { ConfigError, StartupError } from '../../../src/index.js'

const failure = (f: StartupError['failure'], retriable: boolean) => new StartupError(f, 'cannot connect to Kafka at 127.0.0.1:1', { cause: undefined, retriable })

describe('start-up retries after a network fault', () => {
  it('waits 1 s doubling to 15 s, never past the deadline', () => {
    const e = failure('broker-unreachable', true)
    expect([1, 2, 3, 4, 5, 6].map((a) => retryStartIn(e, a, 60_000))).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000])
    expect(retryStartIn(e, 5, 3000)).toBe(3000)
    expect(retryStartIn(e, 1, 0)).toBeUndefined()
  })

  it('does not try again what a setting must fix, nor other start-up failures', () => {
    expect(retryStartIn(failure('broker-unreachable', false), 1, 60_000)).toBeUndefined()
    expect(retryStartIn(failure('topics-missing', true), 1, 60_000)).toBeUndefined()
  })

  it('reads DEV_STATS_STARTUP_TIMEOUT_SECONDS: 60 by default, 0 for never, refuses the rest', () => {
    expect(startupTimeoutSeconds({})).toBe(60)
    expect(startupTimeoutSeconds({ DEV_STATS_STARTUP_TIMEOUT_SECONDS: '0' })).toBe(0)
    expect(() => startupTimeoutSeconds({ DEV_STATS_STARTUP_TIMEOUT_SECONDS: '5s' })).toThrow(ConfigError)
    expect(() => startupTimeoutSeconds({ DEV_STATS_STARTUP_TIMEOUT_SECONDS: '3601' })).toThrow(ConfigError)
  })
})
