import { describe, expect, it } from 'vitest'
import { stopTimeoutSeconds, stopWithin } from '../../../src/cli/start/stop-deadline.js'
import { ConfigError } from '../../../src/index.js'

describe('the stop deadline of dev-stats-ingest start', () => {
  it('DEV_STATS_STOP_TIMEOUT_SECONDS: 50 by default, 1–3600 whole seconds, anything else named', () => {
    expect(stopTimeoutSeconds({})).toBe(50)
    expect(stopTimeoutSeconds({ DEV_STATS_STOP_TIMEOUT_SECONDS: ' 5 ' })).toBe(5)
    for (const bad of ['0', '3601', '1.5', 'soon', '-1']) {
      expect(() => stopTimeoutSeconds({ DEV_STATS_STOP_TIMEOUT_SECONDS: bad })).toThrow(ConfigError)
      expect(() => stopTimeoutSeconds({ DEV_STATS_STOP_TIMEOUT_SECONDS: bad })).toThrow(/DEV_STATS_STOP_TIMEOUT_SECONDS/)
    }
  })

  it('a stop that finishes in time is stopped, one that never finishes ends at the deadline', async () => {
    let told = 0
    expect(await stopWithin(1, Promise.resolve(), () => told++)).toBe('stopped')
    const started = Date.now()
    expect(await stopWithin(1, new Promise<void>(() => undefined), () => told++)).toBe('deadline')
    expect(Date.now() - started).toBeGreaterThanOrEqual(990)
    expect(Date.now() - started).toBeLessThan(4000)
    expect(told).toBe(1)
  })
})
