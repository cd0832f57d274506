import { describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { isEnabled, resolveConsumer, topicsToProvision } from '../../../src/application/consumers/consumer-topics.js'
import { loadConfig } from '../../../src/composition/config.js'
import { allConsumersOf, consumersOf } from '../../../src/composition/consumers.js'

const unique = (xs: readonly string[]) => new Set(xs).size === xs.length

describe('consumer registry', () => {
  it('names, keys, groups and source topics are unique', () => {
    expect(unique(CONSUMERS.map((c) => c.name))).toBe(true)
    expect(unique(CONSUMERS.map((c) => c.key))).toBe(true)
    expect(unique(CONSUMERS.map((c) => c.groupId))).toBe(true)
    expect(unique(CONSUMERS.map((c) => c.topic))).toBe(true)
  })

  it.each(CONSUMERS.map((c) => [c.name, c] as const))('%s: its handler carries its name, topic and group', (_, spec) => {
    const h = spec.handler('t.x', 'g.x')
    expect([h.name, h.topic, h.groupId]).toEqual([spec.name, 't.x', 'g.x'])
  })

  it('dead letters go to <topic>.dlq and parked records to <group>.retry, after overrides too', () => {
    const spec = CONSUMERS.find((c) => c.key === 'FAVORITES')!
    expect(resolveConsumer(spec).topics).toEqual({
      source: 'pin.favorites.favorite-added.v1', deadLetter: 'pin.favorites.favorite-added.v1.dlq', retry: 'dev-stats-funnel-favorites.retry',
    })
    expect(resolveConsumer(spec, { FAVORITES: { topic: 'x.fav', group: 'g.fav' } })).toMatchObject({
      groupId: 'g.fav', topics: { source: 'x.fav', deadLetter: 'x.fav.dlq', retry: 'g.fav.retry' },
    })
  })

  it('npm run topics provisions the source, .dlq and .retry topic of every registered consumer', () => {
    const provisioned = new Set(topicsToProvision(allConsumersOf(loadConfig({}))).map((t) => t.name))
    const missing = CONSUMERS.flatMap((spec) => {
      const { topics } = resolveConsumer(spec)
      return [topics.source, topics.deadLetter, topics.retry].filter((t) => !provisioned.has(t))
    })
    expect(missing).toEqual([])
    expect(provisioned.size).toBe(CONSUMERS.length * 3)
  })

  it('provisions the overridden topics when DEV_STATS_TOPIC_/GROUP_ are set', () => {
    const names = topicsToProvision(allConsumersOf(loadConfig({ DEV_STATS_TOPIC_CRM_DEAL: 'x.deal', DEV_STATS_GROUP_CRM_DEAL: 'g.deal' }))).map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(['x.deal', 'x.deal.dlq', 'g.deal.retry']))
    expect(names).not.toContain('pin.crm.deal-created.v1')
  })

  it('the funnel flag decides the lead-created consumer; every other one always runs', () => {
    const off = CONSUMERS.filter((c) => !isEnabled(c, { funnelEnabled: false })).map((c) => c.name)
    expect(off).toEqual(['funnel-lead-created'])
    expect(consumersOf(loadConfig({ DEV_STATS_FUNNEL_ENABLED: 'true' }))).toHaveLength(CONSUMERS.length)
  })

  it('every registered key is read from the environment as DEV_STATS_TOPIC_<key> / DEV_STATS_GROUP_<key>', () => {
    const env = Object.fromEntries(CONSUMERS.flatMap((c) => [[`DEV_STATS_TOPIC_${c.key}`, `t.${c.key}`], [`DEV_STATS_GROUP_${c.key}`, `g.${c.key}`]]))
    const resolved = allConsumersOf(loadConfig(env))
    expect(resolved.map((r) => [r.topics.source, r.groupId])).toEqual(CONSUMERS.map((c) => [`t.${c.key}`, `g.${c.key}`]))
  })
})
