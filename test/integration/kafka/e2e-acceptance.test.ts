import { afterEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { viewEndedHandler } from '../../../src/application/handlers/view-ended.handler.js'
import { getConversionFunnel } from '../../../src/application/read/get-conversion-funnel.js'
import { getDeveloperSessionMetrics } from '../../../src/application/read/get-developer-session-metrics.js'
import type { Guid } from '../../../src/domain/guid.js'
import {
  EMPTY, binaryRecord, leadCreatedPayload, messageIdOf, path, propertyObjectUpsertedPayload, sessionEndedPayload,
  structuredRecord, viewEndedPayload, type Path,
} from '../../support/events.js'
import { KAFKA_ADAPTERS } from '../../support/kafka.js'
import { KafkaHarness, eventuallyAsync, isolated } from '../../support/kafka-harness.js'

// Seeds 000 and 003 acceptance criteria end to end: binary CloudEvents records (spec §3) through a
// real Kafka broker, with each of the two Kafka adapters.
const wholeDay = { from: Date.parse('2026-11-30T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') }
const day = { fromDate: '2026-11-30', toDate: '2026-11-30' }

describe.each(KAFKA_ADAPTERS)('end to end on Kafka (%s)', (adapter) => {
  let h: KafkaHarness
  afterEach(async () => h?.stopAll())

  describe('session-ended (seed 000)', () => {
    const sessions = isolated(sessionEndedHandler, 'sessions')
    const views = isolated(viewEndedHandler, 'views')
    const dims = isolated(propertyObjectUpsertedHandler, 'dims')
    const sessionRows = () => h.tables.of('session_facts').map((r) => r.fact.row)
    const start = async () => {
      h = new KafkaHarness(adapter, [sessions, views, dims])
      await h.start()
    }

    it('Happy + ViewerKind + structured mode: rows with StartedAt = CreatedAt, sentinel tenant, FactId = ce_id', async () => {
      await start()
      const user = sessionEndedPayload()
      const guest = sessionEndedPayload({ UserId: null })
      const structured = sessionEndedPayload({ UserId: null })
      const record = binaryRecord(sessions.topic, user, { key: user.SessionId as string })
      await h.publish(record, binaryRecord(sessions.topic, guest), structuredRecord(sessions.topic, structured, { messageId: 'structured-1' }))
      await eventuallyAsync(() => h.caughtUp(sessions), 60_000, 'caught up')
      expect(sessionRows().find((r) => r.sessionId === user.SessionId)).toEqual({
        factId: messageIdOf(record),
        sourceEventId: messageIdOf(record),
        sessionId: user.SessionId,
        anonymousId: user.AnonymousId,
        userId: user.UserId,
        viewerKind: 'User',
        tenantId: EMPTY,
        brandId: null,
        developerId: null,
        eventTime: Date.parse('2026-11-30T07:15:30.123Z'),
        startedAt: Date.parse('2026-11-30T07:15:30.123Z'),
        lastActivityAt: Date.parse('2026-11-30T07:45:30.123Z'),
        durationSeconds: 1800,
      })
      expect(sessionRows().find((r) => r.sessionId === guest.SessionId)?.viewerKind).toBe('Guest')
      expect(sessionRows().find((r) => r.sessionId === structured.SessionId)?.factId).toBe('structured-1')
    })

    it('Idempotent repeat and developer binding: a redelivered event is one logical session', async () => {
      await start()
      const p = path()
      const payload = sessionEndedPayload()
      const record = binaryRecord(sessions.topic, payload, { key: payload.SessionId as string })
      await h.publish(record, record, binaryRecord(dims.topic, propertyObjectUpsertedPayload(p)))
      await eventuallyAsync(async () => (await h.caughtUp(sessions)) && (await h.caughtUp(dims)), 60_000, 'caught up')
      await h.publish(record, binaryRecord(views.topic, viewEndedPayload(p, payload.SessionId as string)))
      await eventuallyAsync(() => h.tables.of('property_object_view_facts').length === 1, 60_000, 'view fact')
      await eventuallyAsync(() => h.caughtUp(sessions), 60_000, 'caught up again')
      expect(new Set(sessionRows().map((r) => r.factId)).size).toBe(1)
      const metrics = await getDeveloperSessionMetrics(h.readModel)({ developerId: p.DeveloperId as Guid }, wholeDay)
      expect(metrics).toEqual(E.right(expect.objectContaining({ sessions: 1, totalDurationSeconds: 1800 })))
    })

    it('Boundary values: each poison lands in the DLQ with its reason and original headers; the partition goes on', async () => {
      await start()
      const bad: [string, unknown][] = [
        ['negative-duration', sessionEndedPayload({ DurationSeconds: -1 })],
        ['default-created-at', sessionEndedPayload({ CreatedAt: '0001-01-01T00:00:00+00:00' })],
        ['created-at-in-future', sessionEndedPayload({ CreatedAt: '2026-11-30T13:00:01Z' })],
        ['empty-session-id', sessionEndedPayload({ SessionId: EMPTY })],
        ['undecodable', '{"SessionId": '],
      ]
      const good = sessionEndedPayload()
      const records = bad.map(([, p]) => binaryRecord(sessions.topic, p, { key: 'same-partition' }))
      await h.publish(...records, binaryRecord(sessions.topic, good, { key: 'same-partition' }))
      await eventuallyAsync(() => h.caughtUp(sessions), 60_000, 'caught up')
      const dlq = await h.dlq(sessions, bad.length)
      expect(dlq.map((r) => r.headers['dlq-reason']).sort()).toEqual(bad.map(([reason]) => reason).sort())
      for (const r of dlq) {
        const original = records.find((o) => o.headers['ce_id'] === r.headers['ce_id'])
        expect(original).toBeDefined()
        expect(r.value).toEqual(original?.value)
        expect(new TextDecoder().decode(r.key ?? new Uint8Array())).toBe('same-partition')
        expect(r.headers).toMatchObject({ ...original?.headers, 'dlq-source-topic': sessions.topic, 'dlq-consumer-group': sessions.groupId })
      }
      expect(sessionRows().map((r) => r.sessionId)).toEqual([good.SessionId])
    })

    it('Missing message id: the record is poison (missing-message-id), not dropped silently', async () => {
      await start()
      await h.publish(binaryRecord(sessions.topic, sessionEndedPayload(), { messageId: null }))
      await eventuallyAsync(() => h.caughtUp(sessions), 60_000, 'caught up')
      // (the topics are shared by this describe's tests: earlier dead letters are there too)
      const dlq = await h.dlq(sessions, 1)
      expect(dlq.filter((r) => r.headers['ce_id'] === undefined).map((r) => r.headers['dlq-reason'])).toEqual(['missing-message-id'])
    })
  })

  describe('lead-created (seed 003)', () => {
    const leads = isolated(leadCreatedHandler, 'leads')
    const dims = isolated(propertyObjectUpsertedHandler, 'dims')
    let po1: Path
    const start = async () => {
      h = new KafkaHarness(adapter, [leads, dims])
      await h.start()
      po1 = path()
    }
    const knownObject = async () => {
      await h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po1)))
      await eventuallyAsync(() => h.caughtUp(dims), 60_000, 'dimension')
    }
    const leadsOf = async (p: Path) => {
      const report = await getConversionFunnel(h.readModel, () => ({ enabled: true }))({ developerId: p.DeveloperId as Guid }, day, { propertyObjectId: p.PropertyObjectId as Guid })
      return E.isRight(report) ? report.right.find((s) => s.stage === 'Leads')?.count : undefined
    }
    const lead = (o: Record<string, unknown> = {}) => binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: po1.PropertyObjectId, ...o }))

    it('Happy path + idempotency: L1 raises Leads by 1, its redelivery leaves it at 1, no PII stored', async () => {
      await start()
      await knownObject()
      const l1 = lead()
      await h.publish(l1)
      await eventuallyAsync(() => h.caughtUp(leads), 60_000, 'leads')
      expect(await leadsOf(po1)).toBe(1)
      await h.publish(l1)
      await eventuallyAsync(() => h.caughtUp(leads), 60_000, 'leads again')
      expect(await leadsOf(po1)).toBe(1)
      expect(JSON.stringify(h.tables.of('funnel_daily'))).not.toMatch(/Ivan|\+7 900|ClientId/)
    })

    it('Lead without object: skipped with the counter, no DLQ', async () => {
      await start()
      await knownObject()
      await h.publish(lead({ OriginPropertyObjectId: null }), lead({ OriginPropertyObjectId: undefined }))
      await eventuallyAsync(() => h.caughtUp(leads), 60_000, 'leads')
      expect(h.tables.of('funnel_daily')).toHaveLength(0)
      expect(h.engine(leads.name).stats.skipped.get('no-origin-property-object')).toBe(2)
    })

    it('Late dimension: parked on the retry topic, counted once the dimension arrives; a persistent miss → DLQ dimension-gap', async () => {
      await start()
      const missing = path()
      await h.publish(lead(), binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: missing.PropertyObjectId })))
      const engine = h.engine(leads.name)
      await eventuallyAsync(() => engine.parkedInMemory === 2, 60_000, 'both parked copies back from the retry topic')
      expect(await leadsOf(po1)).toBe(0)
      await knownObject()
      for (let i = 0; i < 6 && !(await h.caughtUp(leads)); i++) {
        await eventuallyAsync(async () => engine.parkedInMemory > 0 || (await h.caughtUp(leads)), 60_000, 'parked copy')
        h.clock.advance(10_000)
        await engine.drain()
      }
      await eventuallyAsync(() => h.caughtUp(leads), 60_000, 'leads caught up')
      expect(await leadsOf(po1)).toBe(1)
      expect((await h.dlq(leads, 1)).map((r) => [r.headers['dlq-reason'], r.headers['dlq-source-topic']])).toEqual([['dimension-gap', leads.topic]])
      expect(engine.stats.recovered).toBe(1)
    })

    it('Store outage: offsets stay behind while the store is down, then everything lands once', async () => {
      await start()
      await knownObject()
      h.store.down = true
      await h.publish(...Array.from({ length: 20 }, () => lead()))
      await eventuallyAsync(() => h.engine(leads.name).stats.sinkRetries >= 3, 60_000, 'retries')
      expect(await h.caughtUp(leads)).toBe(false)
      expect(h.tables.of('funnel_daily')).toHaveLength(0)
      h.store.down = false
      await eventuallyAsync(() => h.caughtUp(leads), 60_000, 'leads caught up')
      expect(await leadsOf(po1)).toBe(20)
    })
  })
})
