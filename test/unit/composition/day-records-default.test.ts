import * as E from 'fp-ts/lib/Either.js'
import { afterEach, describe, expect, it } from 'vitest'
import { PROPERTY_OBJECT_UPSERTED_TOPIC } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { SESSION_ENDED_TOPIC } from '../../../src/application/handlers/session-ended.handler.js'
import { VIEW_ENDED_TOPIC } from '../../../src/application/handlers/view-ended.handler.js'
import { storeFor } from '../../../src/composition/store.factory.js'
import { loadConfig } from '../../../src/composition/config.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import { createDevStatsIngest, type DevStatsIngest } from '../../../src/index.js'
import type { Guid } from '../../../src/domain/guid.js'
import { InMemoryBroker } from '../../../src/testing.js'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewEndedPayload } from '../../support/events.js'
import { until } from '../../support/http.js'

const NOV = { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') }

describe('day records, the default read path (memory store)', () => {
  const running: DevStatsIngest[] = []
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop()
  })

  it('keeps day records with no setting named', () => {
    expect(storeFor(loadConfig({}), () => new InMemoryTables()).dayRecords).toBeDefined()
  })

  it('answers a month of sessions that crossed midnight as the serving rows do', async () => {
    const broker = new InMemoryBroker()
    const s = createDevStatsIngest({ config: { engine: { flushIntervalMs: 20 } }, ports: { broker } })
    running.push(s)
    await s.start()
    const developerId = guid() as Guid
    const p = path(developerId)
    await broker.producer().publish([binaryRecord(PROPERTY_OBJECT_UPSERTED_TOPIC, propertyObjectUpsertedPayload(p))])
    const sessionId = guid()
    await broker.producer().publish([
      binaryRecord(SESSION_ENDED_TOPIC, sessionEndedPayload({ SessionId: sessionId, CreatedAt: '2026-11-20T23:50:00Z', LastActivityAt: '2026-11-21T00:20:00Z', DurationSeconds: 1800 })),
      binaryRecord(VIEW_ENDED_TOPIC, viewEndedPayload(p, sessionId, { ViewedAt: '2026-11-20T23:55:00Z', LastActivityAt: '2026-11-20T23:58:00Z' })),
      binaryRecord(VIEW_ENDED_TOPIC, viewEndedPayload(p, sessionId, { ViewedAt: '2026-11-21T00:05:00Z', LastActivityAt: '2026-11-21T00:10:00Z' })),
    ])
    const metrics = async (period = NOV) => E.getOrElseW(() => undefined)(await s.read.sessionMetrics({ developerId }, period))
    await until('the session is read', async () => (await metrics())?.views.views === 2)
    expect(await metrics()).toMatchObject({ sessions: 1, totalDurationSeconds: 1800, views: { views: 2 } })
    // a period from the second day still counts the session, once
    expect(await metrics({ from: Date.parse('2026-11-21T00:00:00Z'), to: NOV.to })).toMatchObject({ sessions: 1, views: { views: 1 } })
  })
})
