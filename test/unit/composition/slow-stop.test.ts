import { afterEach, describe, expect, it, vi } from 'vitest'
import { SESSION_ENDED_GROUP } from '../../../src/application/handlers/session-ended.handler.js'
import { createDevStatsIngest } from '../../../src/index.js'
import { InMemoryBroker } from '../../../src/testing.js'
import { RecordingLogger } from '../../support/recording-logger.js'

/** A broker whose session-ended consumer does not leave its group until released. */
class SlowToLeave extends InMemoryBroker {
  release: () => void = () => undefined
  private readonly held = new Promise<void>((r) => (this.release = r))

  override consumer(groupId: string) {
    const c = super.consumer(groupId)
    if (groupId !== SESSION_ENDED_GROUP) return c
    const stop = c.stop.bind(c)
    c.stop = async () => {
      await this.held
      await stop()
    }
    return c
  }
}

describe('a stop that hangs', () => {
  afterEach(() => void vi.useRealTimers())

  it('logs every 10 s which consumers it still waits for, and at which step', async () => {
    const logger = new RecordingLogger()
    const broker = new SlowToLeave()
    const ingest = createDevStatsIngest({ logger, ports: { broker } })
    await ingest.start()
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const stopped = ingest.stop()
    await new Promise((r) => setTimeout(r, 1000)) // the other consumers leave (real time)
    await vi.advanceTimersByTimeAsync(20_000)
    const reports = logger.lines.filter((l) => l.message === 'still stopping').map((l) => l.fields['waiting'])
    expect(reports).toEqual([['session-ended: leaving the group'], ['session-ended: leaving the group']])
    broker.release()
    await stopped
    await vi.advanceTimersByTimeAsync(20_000)
    expect(logger.lines.filter((l) => l.message === 'still stopping')).toHaveLength(2)
  })
})
