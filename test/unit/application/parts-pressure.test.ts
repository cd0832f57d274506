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
