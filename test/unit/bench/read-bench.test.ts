import { describe, expect, it } from 'vitest'
import { parseReadOptions } from '../../../bench/read/options.js'
import { developerId, HEAVY_DEVELOPER, loadStatements, objectPath, sizesAt } from '../../../bench/read/load.js'
import { render } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { tickBatches } from '../../../bench/read/writer.js'
import { SESSION_LINK_MARGIN_SECONDS } from '../../../src/domain/serving-links.js'

describe('bench:read options', () => {
  it('defaults to scale 1, every phase, developer 7', () => {
    expect(parseReadOptions([], {})).toMatchObject({ scale: 1, heavy: 1_000_000, onlySingle: false, developer: 7, singleReads: 30, singleWarmup: 3, duration: 20, connections: 50 })
  })

  it('takes --scale N, --scale=N, --only-single and the environment', () => {
    expect(parseReadOptions(['--scale', '4', '--only-single'], {})).toMatchObject({ scale: 4, onlySingle: true })
    expect(parseReadOptions(['--scale=2'], { BENCH_ONLY_SINGLE: '1', BENCH_SINGLE_READS: '10', BENCH_DEVELOPER: '12' })).toMatchObject({ scale: 2, onlySingle: true, singleReads: 10, developer: 12 })
    expect(parseReadOptions(['--heavy', '0'], {})).toMatchObject({ heavy: 0 })
    expect(parseReadOptions(['--heavy=5_000_000'], {})).toMatchObject({ heavy: 5_000_000 })
  })

  it('refuses a scale below 1, unknown arguments and a developer missing at scale 1', () => {
    expect(() => parseReadOptions(['--scale', '0'], {})).toThrow(/--scale/)
    expect(() => parseReadOptions(['--scale', 'x'], {})).toThrow(/--scale/)
    expect(() => parseReadOptions(['--scale', '10000'], {})).toThrow(/heavy developer/)
    expect(() => parseReadOptions(['--heavy', '-1'], {})).toThrow(/--heavy/)
    expect(() => parseReadOptions(['--history', '4'], {})).toThrow(/unknown argument/)
    expect(() => parseReadOptions([], { BENCH_DEVELOPER: '100' })).toThrow(/first 100/)
  })
})

describe('bench:read data', () => {
  it('grows by developers, each owning the same', () => {
    expect(sizesAt(1)).toEqual({ developers: 100, heavy: 0, views: 1_000_000, sessions: 1_000_000, funnelRows: 730_000, funnelEvents: 2_920_000 })
    expect(sizesAt(4)).toEqual({ developers: 400, heavy: 0, views: 4_000_000, sessions: 4_000_000, funnelRows: 2_920_000, funnelEvents: 11_680_000 })
  })

  it('adds the heavy developer beside them: its views and sessions, and a funnel like anyone\'s', () => {
    expect(sizesAt(1, 1_000_000)).toEqual({ developers: 100, heavy: 1_000_000, views: 2_000_000, sessions: 2_000_000, funnelRows: 737_300, funnelEvents: 2_949_200 })
    const statements = loadStatements('db', 1, 1_000_000).map((s) => render(s.statement, 'inline').query)
    expect(statements).toHaveLength(8)
    // its views, funnel rows and name (session facts carry no developer)
    expect(statements.filter((q) => q.includes(String(HEAVY_DEVELOPER)))).toHaveLength(3)
    expect(loadStatements('db', 1)).toHaveLength(4)
  })
})

describe('bench:read writer', () => {
  const now = Date.parse('2026-12-03T10:00:00.400Z')
  const batches = tickBatches(100, 7, now)
  const rows = batches.flatMap((b) => b.rows)

  it('writes every table: views, sessions, funnel rows, a developer name', () => {
    expect(new Set(rows.map((r) => r.table))).toEqual(new Set(['property_object_view_facts', 'session_facts', 'funnel_daily', 'dim_developer']))
  })

  it('puts every view within its session, as the serving tables assume', () => {
    const sessions = new Map(rows.flatMap((r) => (r.table === 'session_facts' ? [[r.row.sessionId, r.row] as const] : [])))
    const views = rows.flatMap((r) => (r.table === 'property_object_view_facts' ? [r.row] : []))
    expect(views.length).toBeGreaterThan(0)
    for (const v of views) {
      const s = sessions.get(v.sessionId)
      expect(s).toBeDefined()
      expect(v.eventTime).toBeGreaterThanOrEqual((s?.startedAt ?? 0) - SESSION_LINK_MARGIN_SECONDS * 1000)
      expect(v.eventTime).toBeLessThanOrEqual((s?.lastActivityAt ?? 0) + SESSION_LINK_MARGIN_SECONDS * 1000)
      expect(v.eventTime % 1000).toBe(0)
    }
  })

  it('writes a session with a view of the heavy developer each tick when there is one', () => {
    const objects = new Set(Array.from({ length: 20 }, (_, o) => objectPath(HEAVY_DEVELOPER, o).propertyObjectId))
    const heavyViews = (b: ReturnType<typeof tickBatches>) =>
      b.flatMap((x) => x.rows).filter((r) => r.table === 'property_object_view_facts' && objects.has(r.row.propertyObjectId))
    expect(heavyViews(tickBatches(100, 7, now, HEAVY_DEVELOPER))).toHaveLength(1)
    expect(heavyViews(batches)).toHaveLength(0)
  })

  it('never writes the single-read developer', () => {
    for (let i = 0; i < 20; i++) {
      const json = JSON.stringify(tickBatches(100, 7, now))
      expect(json).not.toContain(developerId(7))
    }
  })
})
