import { render, sql } from './src/adapters/clickhouse/sql-fragment.js'
import { latestSessions, mergedViews } from './src/adapters/clickhouse/merged-views.sql.js'
const db = process.argv[2]!
const dev = 'de000000-0000-4000-8000-000000000007' as never
const year = { from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2027-01-01T00:00:00Z') }
const which = process.argv[3]
const q = which === 'views' ? sql`SELECT count() AS views, countIf(IsClosed = 1) AS closedViews, sum(DurationSeconds) AS totalViewSeconds FROM (${mergedViews(db, dev, year, 'serving')})`
  : which === 'vsub' ? mergedViews(db, dev, year, 'serving')
  : sql`SELECT count(), countIf(s.2 = 'Guest'), sum(s.1) FROM (${latestSessions(db, dev, year, 'serving')})`
console.log(render(q, 'inline').query)
