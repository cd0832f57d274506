import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SESSION_DAYS_OFF_INTERVAL_MS, SessionDaysOffHeartbeat } from '../../../../src/application/serving/session-days-off-heartbeat.js'
import { RecordingLogger } from '../../../support/recording-logger.js'

describe('SessionDaysOffHeartbeat', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('records the mode every interval while started, and once more at the last record', async () => {
    let records = 0
    const heartbeat = new SessionDaysOffHeartbeat(async () => void records++, new RecordingLogger())
    heartbeat.start()
    await vi.advanceTimersByTimeAsync(SESSION_DAYS_OFF_INTERVAL_MS - 1)
    expect(records).toBe(0)
    await vi.advanceTimersByTimeAsync(2 * SESSION_DAYS_OFF_INTERVAL_MS + 1)
    expect(records).toBe(3)
    await heartbeat.last()
    expect(records).toBe(4)
    await vi.advanceTimersByTimeAsync(5 * SESSION_DAYS_OFF_INTERVAL_MS)
    expect(records).toBe(4)
  })

  it('a failed record is logged and tried again at the next interval', async () => {
    let calls = 0
    const logger = new RecordingLogger()
    const heartbeat = new SessionDaysOffHeartbeat(async () => {
      if (++calls === 1) throw new Error('server gone')
    }, logger)
    heartbeat.start()
    await vi.advanceTimersByTimeAsync(2 * SESSION_DAYS_OFF_INTERVAL_MS)
    expect(calls).toBe(2)
    expect(logger.at('warn')).toEqual([expect.objectContaining({ fields: { err: 'server gone' } })])
    heartbeat.stop()
  })

  it('the last record waits a bounded time for a store that does not answer', async () => {
    const logger = new RecordingLogger()
    const heartbeat = new SessionDaysOffHeartbeat(() => new Promise<void>(() => undefined), logger)
    const last = heartbeat.last()
    await vi.advanceTimersByTimeAsync(1_000)
    await last
    expect(logger.at('warn')).toEqual([expect.objectContaining({ message: expect.stringContaining('last record not confirmed') })])
  })
})
