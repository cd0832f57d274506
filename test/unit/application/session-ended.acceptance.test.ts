import { afterEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { viewEndedHandler } from '../../../src/application/handlers/view-ended.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { getDeveloperSessionMetrics } from '../../../src/application/read/get-developer-session-metrics.js'
import type { Guid } from '../../../src/domain/guid.js'
import {
  EMPTY, binaryRecord, guid, messageIdOf, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewEndedPayload,
} from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

// Acceptance criteria of seed 000 (DevStatsSessionEndedConsumer), over in-memory adapters.
const sessions = sessionEndedHandler()
const views = viewEndedHandler()
const dims = propertyObjectUpsertedHandler()
let h: Harness

const run = async (...records: ReturnType<typeof binaryRecord>[]) => {
  h = new Harness([sessions, views, dims])
  await h.start()
  h.publish(...records)
  await waitUntil(() => h.caughtUp(sessions) && h.caughtUp(views) && h.caughtUp(dims), 10_000, 'caught up')
}

const sessionRows = () => h.tables.of('session_facts').map((r) => r.fact.row)

afterEach(async () => h?.stopAll())

describe('session-ended acceptance (seed 000)', () => {
  it('Happy: a valid session-ended gives a row with duration, StartedAt = CreatedAt, LastActivityAt, sentinel TenantId, NULL DeveloperId, FactId = SourceEventId', async () => {
    const payload = sessionEndedPayload()
    const record = binaryRecord(sessions.topic, payload, { key: payload.SessionId as string })
    await run(record)
    expect(sessionRows()).toEqual([
      {
        factId: messageIdOf(record),
        sourceEventId: messageIdOf(record),
        sessionId: payload.SessionId,
        anonymousId: payload.AnonymousId,
        userId: payload.UserId,
        viewerKind: 'User',
        tenantId: EMPTY,
        brandId: null,
        developerId: null,
        eventTime: Date.parse('2026-11-30T07:15:30.123Z'),
        startedAt: Date.parse('2026-11-30T07:15:30.123Z'),
        lastActivityAt: Date.parse('2026-11-30T07:45:30.123Z'),
        durationSeconds: 1800,
      },
    ])
    expect(await h.metric('dev_stats_session_facts_ingested_total')).toBe(1)
  })

  it('ViewerKind: UserId null gives Guest, UserId present gives User (no role needed)', async () => {
    const guest = sessionEndedPayload({ UserId: null })
    const absent = sessionEndedPayload()
    delete absent.UserId
    const user = sessionEndedPayload({ ViewerRole: 'Agent' })
    await run(...[guest, absent, user].map((p) => binaryRecord(sessions.topic, p)))
    const kindOf = (p: Record<string, unknown>) => sessionRows().find((r) => r.sessionId === p.SessionId)?.viewerKind
    expect([kindOf(guest), kindOf(absent), kindOf(user)]).toEqual(['Guest', 'Guest', 'User'])
  })

  it('Idempotent repeat: a terminal event delivered twice is one logical row (in-batch dedup, argMax on read)', async () => {
    const payload = sessionEndedPayload()
    const record = binaryRecord(sessions.topic, payload, { key: payload.SessionId as string })
    h = new Harness([sessions, views, dims])
    await h.start()
    h.publish(record, record) // same batch
    await waitUntil(() => h.caughtUp(sessions))
    expect(sessionRows()).toHaveLength(1)
    h.publish(record) // a later redelivery: re-inserted, collapses by FactId on read
    await waitUntil(() => h.caughtUp(sessions))
    expect(new Set(sessionRows().map((r) => r.factId)).size).toBe(1)
    const p = path()
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(p)))
    await waitUntil(() => h.caughtUp(dims))
    h.publish(binaryRecord(views.topic, viewEndedPayload(p, payload.SessionId as string)))
    await waitUntil(() => h.tables.of('property_object_view_facts').length === 1, 5000, 'view fact')
    const metrics = await getDeveloperSessionMetrics(h.readModel)({ developerId: p.DeveloperId as Guid }, wholeDay)
    expect(metrics).toEqual(E.right(expect.objectContaining({ sessions: 1, totalDurationSeconds: 1800 })))
  })

  it('ContractVersion mismatch: a warning and a counter, the event is still ingested, nothing dead-lettered', async () => {
    const payload = sessionEndedPayload({ AddedLaterByProducer: { Device: 'x' } })
    await run(binaryRecord(sessions.topic, payload, { contractVersion: '2' }))
    expect(sessionRows().map((r) => r.sessionId)).toEqual([payload.SessionId])
    expect(h.dlq(sessions)).toHaveLength(0)
    expect(h.logger.at('warn').map((l) => [l.fields.expected, l.fields.actual])).toContainEqual(['1', '2'])
    expect(await h.metric('dev_stats_contract_version_mismatch_total')).toBe(1)
  })

  it('ContractVersion: a missing header is no mismatch; a real mismatch warns once per version and counts every record', async () => {
    await run(
      binaryRecord(sessions.topic, sessionEndedPayload(), { contractVersion: null }),
      ...[2, 2, 2, 3].map((v) => binaryRecord(sessions.topic, sessionEndedPayload(), { contractVersion: String(v) })),
    )
    expect(sessionRows()).toHaveLength(5)
    expect(h.logger.at('warn').map((l) => l.fields.actual).sort()).toEqual(['2', '3'])
    expect(await h.metric('dev_stats_contract_version_mismatch_total')).toBe(4)
  })

  it('duplicates are dropped silently: no log line names them', async () => {
    const record = binaryRecord(sessions.topic, sessionEndedPayload(), { key: 'one-partition' })
    await run(record, record)
    expect(h.engine(sessions.name).stats.duplicatesDropped).toBe(1)
    expect(h.logger.lines.filter((l) => l.level !== 'info' && l.level !== 'debug')).toEqual([])
  })

  it.each([
    ['negative-duration', sessionEndedPayload({ DurationSeconds: -1 })],
    ['default-created-at', sessionEndedPayload({ CreatedAt: '0001-01-01T00:00:00+00:00' })],
    ['created-at-in-future', sessionEndedPayload({ CreatedAt: '2026-11-30T13:00:01Z' })],
    ['empty-session-id', sessionEndedPayload({ SessionId: EMPTY })],
    ['undecodable', '{"SessionId": '],
  ])('Boundary values: %s goes to the DLQ with an error log and the partition goes on', async (reason, payload) => {
    const bad = binaryRecord(sessions.topic, payload, { key: 'k' })
    const good = sessionEndedPayload()
    await run(bad, binaryRecord(sessions.topic, good, { key: 'k' }))
    expect(h.dlq(sessions).map((r) => r.headers['dlq-reason'])).toEqual([reason])
    expect(h.dlq(sessions)[0]?.value).toEqual(bad.value)
    expect(h.logger.at('error').map((l) => [l.message, l.fields.reason])).toContainEqual(['skipped-poison', reason])
    expect(sessionRows().map((r) => r.sessionId)).toEqual([good.SessionId])
  })

  it('Developer binding on read: only sessions that viewed the actor\'s property objects are returned', async () => {
    const mine = path()
    const theirs = path()
    const [s1, s2, s3] = [sessionEndedPayload({ UserId: null, DurationSeconds: 60 }), sessionEndedPayload({ DurationSeconds: 600 }), sessionEndedPayload()]
    await run(
      binaryRecord(dims.topic, propertyObjectUpsertedPayload(mine)),
      binaryRecord(dims.topic, propertyObjectUpsertedPayload(theirs)),
      ...[s1, s2, s3].map((s) => binaryRecord(sessions.topic, s)),
    )
    h.publish(
      binaryRecord(views.topic, viewEndedPayload(mine, s1?.SessionId as string)),
      binaryRecord(views.topic, viewEndedPayload(mine, s2?.SessionId as string)),
      binaryRecord(views.topic, viewEndedPayload(theirs, s3?.SessionId as string)),
    )
    await waitUntil(() => h.tables.of('property_object_view_facts').length === 3, 5000, 'view facts')
    const metrics = getDeveloperSessionMetrics(h.readModel)
    expect(await metrics({ developerId: mine.DeveloperId as Guid }, wholeDay)).toEqual(
      E.right({ sessions: 2, guestSessions: 1, userSessions: 1, totalDurationSeconds: 660, minDurationSeconds: 60, maxDurationSeconds: 600, avgDurationSeconds: 330,
        views: { views: 2, closedViews: 2, totalViewSeconds: 240 } }),
    )
    expect(await metrics(null, wholeDay)).toEqual(E.left(expect.objectContaining({ code: 'actor-required' })))
    expect(guid()).not.toBe(mine.DeveloperId)
  })
})

const wholeDay = { from: Date.parse('2026-11-30T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') }
