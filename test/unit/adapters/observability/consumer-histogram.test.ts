import { describe, expect, it } from 'vitest'
import { Histogram, Registry } from 'prom-client'
import { ConsumerHistogram } from '../../../../src/adapters/observability/consumer-histogram.js'

const BUCKETS = [1, 5, 15, 60]
const VALUES: readonly [string, number][] = [['a', 0], ['a', 1], ['a', 1.5], ['b', 5], ['a', 59.9], ['b', 61], ['a', 3600], ['b', 0.25]]

describe('ConsumerHistogram', () => {
  it("is exposed exactly as prom-client's Histogram with the same observations", async () => {
    const ours = new Registry()
    const theirs = new Registry()
    const h = new ConsumerHistogram('lag_seconds', 'Some lag', BUCKETS, ours)
    const reference = new Histogram({ name: 'lag_seconds', help: 'Some lag', labelNames: ['consumer'], buckets: BUCKETS, registers: [theirs] })
    for (const [consumer, v] of VALUES) {
      h.observe(consumer, v)
      reference.observe({ consumer }, v)
    }
    expect(await ours.metrics()).toBe(await theirs.metrics())
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON())
  })

  it('refuses a value that is not a finite number, as prom-client does', () => {
    const h = new ConsumerHistogram('x_seconds', 'x', BUCKETS, new Registry())
    expect(() => h.observe('a', Number.NaN)).toThrow(TypeError)
  })

  it('starts empty again after a registry reset', async () => {
    const registry = new Registry()
    const h = new ConsumerHistogram('x_seconds', 'x', BUCKETS, registry)
    h.observe('a', 2)
    registry.resetMetrics()
    expect(await registry.metrics()).toBe('# HELP x_seconds x\n# TYPE x_seconds histogram\n')
  })
})
