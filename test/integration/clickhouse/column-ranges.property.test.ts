import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDimensionReader } from '../../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { actionTrackedHandler } from '../../../src/application/handlers/action-tracked.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { viewEndedHandler } from '../../../src/application/handlers/view-ended.handler.js'
import { COLUMN_LIMITS } from '../../../src/domain/column-limits.js'
import type { Guid } from '../../../src/domain/guid.js'
import { utcDate } from '../../../src/domain/instant.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { binaryRecord, funnelEventPayload, guid, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewActionPayload, viewEndedPayload, type Path } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'
import { clickHouseDump, memoryDump, type StoreDump } from '../../support/store-dump.js'

// Issue 8, done-when: payloads at and beyond every column's limits, through the real engine into
// the in-memory store, the ClickHouse 18.16 server and chdb. Every record ends in the store with
// exactly the value it carried (read back) or in the DLQ with a reason — and never as
// `store-rejected`, which would mean the domain's limits table disagrees with a server; the three
// stores give the same answers; no run stalls. The clock stands just before the DateTime limit so
// that the future rule (now + 1 h) does not hide the upper bound.
const NOW = Date.parse('2105-12-31T23:30:00Z')
const RUNS = Number(process.env.RANGES_PROPERTY_RUNS ?? 12)
const DAY = 86_400_000
const BOUNDS = [
  Date.parse('0001-01-01T00:00:00Z'), Date.parse('1900-01-01T00:00:00Z'), -1000, 0, 500, 999, 1000, DAY - 1, DAY, 2 * DAY,
  Date.parse('2026-11-30T10:00:00Z'), COLUMN_LIMITS.DateTime.max - 999, COLUMN_LIMITS.DateTime.max, COLUMN_LIMITS.DateTime.max + 1,
  Date.parse('2106-02-07T06:28:15Z'), Date.parse('2106-02-07T06:28:16Z'), Date.parse('2149-06-06T00:00:00Z'), Date.parse('2149-06-07T00:00:00Z'),
]
const instant = fc.oneof(
  fc.constantFrom(...BOUNDS),
  fc.constantFrom(...BOUNDS.slice(2)).chain((b) => fc.integer({ min: b - 2 * DAY, max: b + 2 * DAY })),
)
const iso = (ms: number) => new Date(ms).toISOString()
const uint = fc.oneof(fc.constantFrom(0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, -1, Number.MAX_SAFE_INTEGER), fc.nat())

type Spec =
  | { kind: 'session'; createdAt: number; lastActivityAt: number; durationSeconds: number }
  | { kind: 'view'; viewedAt: number; lastActivityAt: number; durationSeconds: number }
  | { kind: 'action'; viewedAt: number }
  | { kind: 'funnel'; occurredAt: number }
  | { kind: 'dim'; upsertedAt: number }
const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ kind: fc.constant('session' as const), createdAt: instant, lastActivityAt: instant, durationSeconds: fc.nat({ max: 2 ** 31 - 1 }) }),
  fc.record({ kind: fc.constant('view' as const), viewedAt: instant, lastActivityAt: instant, durationSeconds: uint }),
  fc.record({ kind: fc.constant('action' as const), viewedAt: instant }),
  fc.record({ kind: fc.constant('funnel' as const), occurredAt: instant }),
  fc.record({ kind: fc.constant('dim' as const), upsertedAt: instant }),
)

const sessions = sessionEndedHandler()
const views = viewEndedHandler()
const actions = actionTrackedHandler()
const dims = propertyObjectUpsertedHandler()
const favoritesSpec = CONSUMERS.find((c) => c.name === 'funnel-favorites')
if (!favoritesSpec) throw new Error('funnel-favorites is not in the registry')
const favorites = favoritesSpec.handler(favoritesSpec.topic, favoritesSpec.groupId)
const handlers = [sessions, views, actions, favorites, dims]

interface Sample {
  readonly anonymousId: Guid
  readonly po: Path
  readonly records: readonly { readonly id: string; readonly spec: Spec; readonly record: ReturnType<typeof binaryRecord> }[]
}

const sampleOf = (specs: readonly Spec[]): Sample => {
  const anonymousId = guid() as Guid
  const po = path()
  const records = specs.map((s) => {
    const id = guid()
    const payload =
      s.kind === 'session' ? [sessions.topic, sessionEndedPayload({ AnonymousId: anonymousId, CreatedAt: iso(s.createdAt), LastActivityAt: iso(s.lastActivityAt), DurationSeconds: s.durationSeconds })]
      : s.kind === 'view' ? [views.topic, viewEndedPayload(po, guid(), { ViewedAt: iso(s.viewedAt), LastActivityAt: iso(s.lastActivityAt), DurationSeconds: s.durationSeconds })]
      : s.kind === 'action' ? [actions.topic, viewActionPayload(po, { ViewedAt: iso(s.viewedAt) })]
      : s.kind === 'funnel' ? [favorites.topic, funnelEventPayload('FavoriteId', po.PropertyObjectId, { OccurredAt: iso(s.occurredAt) })]
      : [dims.topic, propertyObjectUpsertedPayload({ ...path(po.DeveloperId) }, { UpsertedAt: iso(s.upsertedAt) })]
    return { id, spec: s, record: binaryRecord(payload[0] as string, payload[1], { messageId: id }) }
  })
  return { anonymousId, po, records }
}

interface Outcome {
  readonly dump: StoreDump
  readonly deadLetters: Record<string, string>
  readonly storeRejected: number
}

/** The whole pipeline on one store: dimension first, then the sample; fails if any consumer stalls. */
const runOn = async (sample: Sample, store: 'memory' | ClickHouseSession): Promise<Outcome> => {
  const h = new Harness(handlers, FAST_CONFIG)
  h.clock.current = NOW
  if (store !== 'memory') {
    h.sink = new ClickHouseFactStore(store)
    h.lookup = new ClickHouseDimensionReader(store)
  }
  try {
    await h.start()
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(sample.po)))
    await waitUntil(() => h.caughtUp(dims), 20_000, 'the sample dimension')
    h.publish(...sample.records.map((r) => r.record))
    await waitUntil(() => handlers.every((x) => h.caughtUp(x)), 30_000, 'every consumer caught up').catch((e: unknown) => {
      const behind = handlers.filter((x) => !h.caughtUp(x)).map((x) => x.name)
      const errors = h.logger.lines.filter((l) => l.level === 'error' || l.level === 'warn').slice(-5).map((l) => `${l.message} ${JSON.stringify(l.fields)}`)
      throw new Error(`${String(e)} on ${store === 'memory' ? 'memory' : store.database}; behind: ${behind.join(', ')}; last errors: ${errors.join(' | ')}`)
    })
    const deadLetters = Object.fromEntries(
      handlers.flatMap((x) => h.dlq(x)).map((r) => [r.headers['ce_id'] as string, r.headers['dlq-reason'] as string]),
    )
    const dump = store === 'memory' ? memoryDump(h.tables, sample.anonymousId, sample.po.DeveloperId) : await clickHouseDump(store, sample.anonymousId, sample.po.DeveloperId as Guid)
    const storeRejected = [...h.running.values()].reduce((n, r) => n + (r.engine.stats.deadLetters.get('store-rejected') ?? 0), 0)
    return { dump, deadLetters, storeRejected }
  } finally {
    await h.stopAll()
  }
}

const sec = (ms: number) => Math.floor(ms / 1000)
const inDateTime = (ms: number) => ms >= COLUMN_LIMITS.DateTime.min && ms <= COLUMN_LIMITS.DateTime.max

/** Each record is in the DLQ with a reason, or stored with exactly its own values. */
const checkRecords = (sample: Sample, o: Outcome): void => {
  const { dump, deadLetters } = o
  const dimId = (r: Sample['records'][number]) => JSON.parse(new TextDecoder().decode(r.record.value as Uint8Array)).Id as string
  for (const r of sample.records) {
    const reason = deadLetters[r.id]
    const s = r.spec
    if (reason !== undefined) {
      expect(reason, `${s.kind} ${r.id}`).toMatch(/^(out-of-range|default-created-at|created-at-in-future|negative-duration)$/)
      continue
    }
    if (s.kind === 'session') {
      expect(dump.sessions[r.id]).toEqual({ startedAt: sec(s.createdAt), lastActivityAt: sec(s.lastActivityAt), durationSeconds: s.durationSeconds })
      expect(inDateTime(s.createdAt) && inDateTime(s.lastActivityAt)).toBe(true)
    } else if (s.kind === 'view') {
      expect(dump.views[r.id]).toEqual({ isClosed: true, viewedAt: sec(s.viewedAt), lastActivityAt: sec(s.lastActivityAt), durationSeconds: s.durationSeconds })
    } else if (s.kind === 'action') {
      expect(dump.views[r.id]).toEqual({ isClosed: false, viewedAt: sec(s.viewedAt), lastActivityAt: null, durationSeconds: null })
      expect(dump.funnel[`Views ${utcDate(s.viewedAt)}`]).toBeGreaterThanOrEqual(1)
    } else if (s.kind === 'funnel') {
      expect(dump.funnel[`Favorites ${utcDate(s.occurredAt)}`]).toBeGreaterThanOrEqual(1)
    } else {
      expect(dump.dims[dimId(r)]).toEqual({ upsertedAt: sec(s.upsertedAt), version: String(s.upsertedAt * 1000) })
    }
  }
  const stored = Object.keys(dump.sessions).length + Object.keys(dump.views).length
  const expectedStored = sample.records.filter((r) => ['session', 'view', 'action'].includes(r.spec.kind) && deadLetters[r.id] === undefined).length
  expect(stored).toBe(expectedStored)
}

describe('column limits: memory, ClickHouse 18.16 and chdb agree, nothing wraps, nothing stalls', () => {
  const server = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: 'i8_column_ranges' })
  const dir = mkdtempSync(join(tmpdir(), 'dev-stats-ranges-'))
  const embedded = embeddedSession({ path: dir, database: 'i8_column_ranges' })

  beforeAll(async () => {
    await resetDatabase(server)
    await resetDatabase(embedded)
  })

  afterAll(async () => {
    await server.command(sql`DROP DATABASE IF EXISTS ${ident('i8_column_ranges')}`).catch(() => undefined)
    await server.close()
    await embedded.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('generated payloads at and beyond every limit', async () => {
    let records = 0
    const reasons = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 12 }), async (specs) => {
        const sample = sampleOf(specs)
        const memory = await runOn(sample, 'memory')
        const onServer = await runOn(sample, server)
        const onChdb = await runOn(sample, embedded)
        for (const o of [memory, onServer, onChdb]) {
          expect(o.storeRejected).toBe(0)
          checkRecords(sample, o)
        }
        expect(onServer).toEqual(memory)
        expect(onChdb).toEqual(memory)
        records += sample.records.length
        for (const r of Object.values(memory.deadLetters)) reasons.set(r, (reasons.get(r) ?? 0) + 1)
      }),
      { numRuns: RUNS, endOnFailure: true, ...(process.env.RANGES_PROPERTY_SEED ? { seed: Number(process.env.RANGES_PROPERTY_SEED), path: process.env.RANGES_PROPERTY_PATH ?? '0' } : {}) },
    )
    console.log(`[column ranges] ${RUNS} samples, ${records} records on 3 stores; dead letters by reason: ${JSON.stringify(Object.fromEntries(reasons))}`)
    expect(reasons.get('out-of-range') ?? 0).toBeGreaterThan(0)
  })
})
