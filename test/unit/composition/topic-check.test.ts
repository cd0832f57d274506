import { describe, expect, it } from 'vitest'
import type { IngestService } from '../../../src/application/ingest-service.js'
import { MissingTopicsError } from '../../../src/application/ports/topic-catalog.port.js'
import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import { loadConfig } from '../../../src/composition/config.js'
import { createContainer } from '../../../src/composition/container.js'
import { TOKENS } from '../../../src/composition/tokens.js'

const containerOf = (env: Record<string, string> = {}) => {
  const c = createContainer(loadConfig({ DEV_STATS_LOG_LEVEL: 'silent', DEV_STATS_FUNNEL_ENABLED: 'true', ...env }))
  return { service: c.get<IngestService>(TOKENS.IngestService), broker: c.get<InMemoryBroker>(TOKENS.Broker) }
}

describe('start-up topic check (in-memory broker)', () => {
  it('the in-memory broker comes with every enabled consumer topic, so start succeeds', async () => {
    const { service } = containerOf()
    await service.start()
    await service.stop()
    expect(service.engines.length).toBeGreaterThan(10)
  })

  it('missing topics: one error naming all of them, and no consumer joined its group', async () => {
    const { service, broker } = containerOf()
    broker.deleteTopic('dev-stats-funnel-crm-deal.retry')
    broker.deleteTopic('pin.crm.lead-created.v1.dlq')
    const started = service.start()
    await expect(started).rejects.toThrow(MissingTopicsError)
    await expect(started).rejects.toMatchObject({ topics: ['dev-stats-funnel-crm-deal.retry', 'pin.crm.lead-created.v1.dlq'] })
    await expect(started).rejects.toThrow(/dev-stats-funnel-crm-deal\.retry, pin\.crm\.lead-created\.v1\.dlq/)
    // joining a group creates its topics in memory: still missing means nobody joined
    expect(await broker.missing(['dev-stats-funnel-crm-deal.retry'])).toEqual(['dev-stats-funnel-crm-deal.retry'])
  })

  it('checks the overridden topics of the configuration', async () => {
    const { service, broker } = containerOf({ DEV_STATS_TOPIC_SESSION_ENDED: 'own.sessions', DEV_STATS_GROUP_SESSION_ENDED: 'own-group' })
    expect(await broker.missing(['own.sessions', 'own.sessions.dlq', 'own-group.retry'])).toEqual([])
    broker.deleteTopic('own-group.retry')
    await expect(service.start()).rejects.toMatchObject({ topics: ['own-group.retry'] })
  })
})
