import { describe, expect, it } from 'vitest'
import { ProxyWatch } from '../../../bench/soak/proxy-watch.js'

describe("the soak's watch of Toxiproxy's memory (this process standing in for it)", () => {
  it('asks for a restart once past the stuck size, and fails the run past the limit', () => {
    const stuck: number[] = []
    const over: number[] = []
    const watch = new ProxyWatch(() => process.pid, 1_000_000, (mb) => over.push(mb), 1000, { mb: 1, call: (mb) => stuck.push(mb) })
    watch.sample()
    watch.sample()
    expect(stuck).toHaveLength(1)
    expect(stuck[0]).toBeGreaterThan(1)
    expect(over).toEqual([])
    expect(watch.peakFiles).toBeGreaterThan(0)
    const strict = new ProxyWatch(() => process.pid, 1, (mb) => over.push(mb))
    strict.sample()
    strict.sample()
    expect(over).toHaveLength(1)
  })
})
