import { describe, expect, it } from 'vitest'
import { retryStartIn, startupTimeoutSeconds } from '../../../src/cli/start/startup-deadline.js'
import { ConfigError, StartupError } from '../../../src/index.js'

const failure = (f: StartupError['failure'], networkFault: boolean) => new StartupError(f, 'cannot connect to 127.0.0.1:1', { cause: undefined, retriable: networkFault, networkFault })

describe('start-up retries after a network fault', () => {
  it('waits 1 s doubling to 15 s, never past the deadline', () => {
    const e = failure('broker-unreachable', true)
    expect([1, 2, 3, 4, 5, 6].map((a) => retryStartIn(e, a, 60_000))).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000])
    expect(retryStartIn(e, 5, 3000)).toBe(3000)
    expect(retryStartIn(e, 1, 0)).toBeUndefined()
  })

  it('tries the store again after a network fault on its way too', () => {
    expect(retryStartIn(failure('store-unreachable', true), 1, 60_000)).toBe(1000)
  })

  it('does not try again what a setting must fix, nor other start-up failures', () => {
    expect(retryStartIn(failure('broker-unreachable', false), 1, 60_000)).toBeUndefined()
    expect(retryStartIn(failure('store-unreachable', false), 1, 60_000)).toBeUndefined()
    expect(retryStartIn(new StartupError('store-unreachable', 'x', { cause: undefined, retriable: true }), 1, 60_000)).toBeUndefined()
    expect(retryStartIn(failure('topics-missing', false), 1, 60_000)).toBeUndefined()
  })

  it('reads DEV_STATS_STARTUP_TIMEOUT_SECONDS: 60 by default, 0 for never, refuses the rest', () => {
    expect(startupTimeoutSeconds({})).toBe(60)
    expect(startupTimeoutSeconds({ DEV_STATS_STARTUP_TIMEOUT_SECONDS: '0' })).toBe(0)
    expect(() => startupTimeoutSeconds({ DEV_STATS_STARTUP_TIMEOUT_SECONDS: '5s' })).toThrow(ConfigError)
    expect(() => startupTimeoutSeconds({ DEV_STATS_STARTUP_TIMEOUT_SECONDS: '3601' })).toThrow(ConfigError)
  })
})
