import { describe, expect, it } from 'vitest'
import { PARTS_PRESSURE_PEAK, PartsPressure } from '../../../src/application/engine/parts-pressure.js'
import type { Logger } from '../../../src/application/ports/logger.port.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'

// Issue 37.2: the store's active parts read every few seconds; high at 100 in a partition (before
// ClickHouse's 150 delays inserts), logged when it turns, the last figure kept when a read fails.
describe('PartsPressure', () => {
  it('is high from PARTS_PRESSURE_PEAK active parts on, says so once each way, and keeps its figure when a read fails', async () => {
    let peak = 10
    let failing = false
    const warnings: string[] = []
    const logger: Logger = { ...silentLogger, warn: (_f, message) => void warnings.push(message) }
    const pressure = new PartsPressure({ activePartsPeak: async () => { if (failing) throw new Error('gone'); return peak } }, logger)
    await pressure.read()
    expect(pressure.high).toBe(false)
    peak = PARTS_PRESSURE_PEAK
    await pressure.read()
    await pressure.read()
    expect(pressure.high).toBe(true)
    failing = true
    await pressure.read()
    expect(pressure.high).toBe(true)
    failing = false
    peak = 20
    await pressure.read()
    expect(pressure.high).toBe(false)
    expect(warnings).toEqual(['parts pressure: inserting fewer, larger batches', 'active parts not read', 'parts pressure gone'])
  })
})

// Issue 46.3: a slow store must not collect parts reads, one per tick, on the connections the
// inserts and reads need; nor may one unanswered read stop the figure from being reported as stale.
describe('PartsPressure on a store that does not answer', () => {
  it('has one read out at a time, ends waiting for it after its time limit, and reads again once it is answered', async () => {
    const answers: ((peak: number) => void)[] = []
    const warnings: string[] = []
    const logger: Logger = { ...silentLogger, warn: (_f, message) => void warnings.push(message) }
    const pressure = new PartsPressure({ activePartsPeak: () => new Promise<number>((resolve) => answers.push(resolve)) }, logger, 5000, 50)
    const at = performance.now()
    const first = pressure.read()
    void pressure.read()
    void pressure.read()
    await first
    expect(performance.now() - at).toBeLessThan(1000)
    expect(answers).toHaveLength(1)
    expect(warnings).toEqual(['active parts not read'])
    void pressure.read()
    expect(answers).toHaveLength(1)
    answers[0]!(PARTS_PRESSURE_PEAK)
    await new Promise((r) => setTimeout(r, 0))
    const second = pressure.read()
    expect(answers).toHaveLength(2)
    answers[1]!(PARTS_PRESSURE_PEAK)
    await second
    expect(pressure.high).toBe(true)
  })
})
