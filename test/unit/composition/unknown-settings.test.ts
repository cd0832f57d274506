import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/composition/config.js'
import { resolveConfig } from '../../../src/composition/config-input.js'
import { editDistance, unknownConfigKeys, unknownVariables } from '../../../src/composition/unknown-settings.js'

// Issue 48: a DEV_STATS_* variable or a host's config key that no setting reads is refused, named
// with the closest known name, instead of being ignored.
describe('unknown settings', () => {
  it.each([
    ['DEV_STATS_READ_API_JWT_ISSUER', 'DEV_STATS_READ_API_ISSUER'],
    ['DEV_STATS_KAFKA_BROKER', 'DEV_STATS_KAFKA_BROKERS'],
    ['DEV_STATS_TOPIC_SESION_ENDED', 'DEV_STATS_TOPIC_SESSION_ENDED'],
    ['DEV_STATS_GROUP_VIEWENDED', 'DEV_STATS_GROUP_VIEW_ENDED'],
    ['DEV_STATS_CLICKHOUSE_PASWORD_FILE', 'DEV_STATS_CLICKHOUSE_PASSWORD_FILE'],
  ])('%s is refused, pointing to %s', (name, closest) => {
    expect(unknownVariables({ [name]: 'x', PATH: '/bin' })).toEqual([{ name, closest }])
    expect(() => loadConfig({ [name]: 'x' })).toThrow(new ConfigError(name, `is not a setting (did you mean ${closest}?)`))
  })

  it('every unknown variable is named at once; other variables and known ones pass', () => {
    expect(unknownVariables({ DEV_STATS_B: '1', DEV_STATS_A: '1', HOME: '/root', DEV_STATS_BROKER: 'kafkajs', DEV_STATS_TOPIC_LEAD_CREATED: 't' }).map((u) => u.name)).toEqual([
      'DEV_STATS_A',
      'DEV_STATS_B',
    ])
    expect(() => loadConfig({ DEV_STATS_X: '1', DEV_STATS_Y: '2' })).toThrow(/DEV_STATS_X is not a setting .*; DEV_STATS_Y is not a setting/)
  })

  it("a host's config key that is no setting is refused with the nearest sibling; optional and whole subtrees pass", () => {
    const defaults = loadConfig({})
    expect(unknownConfigKeys({ clickhouse: { urll: 'http://ch:8123' }, engine: { maxBatchRow: 5 }, colour: 'red' }, defaults)).toEqual([
      { name: 'config.clickhouse.urll', closest: 'config.clickhouse.url' },
      { name: 'config.engine.maxBatchRow', closest: 'config.engine.maxBatchRows' },
      { name: 'config.colour', closest: expect.stringMatching(/^config\./) },
    ])
    const valid = {
      clickhouse: { cluster: 'c', ca: 'pem' },
      kafka: { security: { protocol: 'ssl', ssl: { ca: 'pem' } } },
      engine: { catchUp: { maxRows: 8000, maxBytes: 2_000_000 } },
      topics: { SESSION_ENDED: { topic: 't', group: 'g' } },
      viewSources: ['Catalog'],
    }
    expect(unknownConfigKeys(valid, defaults)).toEqual([])
    expect(() => resolveConfig({ clickhouse: { urll: 'x' } } as never)).toThrow(new ConfigError('config.clickhouse.urll', 'is not a setting (did you mean config.clickhouse.url?)'))
  })

  it('an unknown subtree is named once, not each key under it', () => {
    expect(unknownConfigKeys({ readApi: { issuer: 'x', audience: 'y' } }, loadConfig({})).map((u) => u.name)).toEqual(['config.readApi'])
  })

  it('edit distance counts single-character insertions, deletions and substitutions', () => {
    expect(editDistance('', 'abc')).toBe(3)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('same', 'same')).toBe(0)
  })
})
