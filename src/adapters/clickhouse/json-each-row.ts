import type { FactRow } from '../../domain/fact-row.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import type { SessionFactRow } from '../../domain/session-fact.js'
import type { ViewFactRow } from '../../domain/view-fact.js'
import { toTableRow } from './clickhouse-row.mapper.js'
import { dateTimeText } from './datetime-text.js'

// The two tables every session and view lands in, written as text in one pass: the same bytes
// JSON.stringify makes of toTableRow's object (json-each-row.test.ts holds them equal), without
// the object per row and the generic walk over it. The rare tables go through toTableRow.

const str = (v: string | null): string => (v == null ? 'null' : JSON.stringify(v))
// A Guid holds hex digits and dashes only (validated on decode): quoted as it is, no escaping
// pass and no string of its own per field (JSON.stringify was a tenth of the insert body's CPU).
const guid = (v: Guid | null): string => (v === null ? 'null' : `"${v}"`)
const num = (v: number | null): string => (typeof v === 'number' && Number.isFinite(v) ? String(v) : 'null')
const time = (v: Instant): string => `"${dateTimeText(v)}"`
const nullableTime = (v: Instant | null): string => (v === null ? 'null' : time(v))

const sessionLine = (r: SessionFactRow, ingestion: string): string =>
  `{"FactId":${str(r.factId)},"SourceEventId":${str(r.sourceEventId)},"SessionId":"${r.sessionId}","AnonymousId":"${r.anonymousId}",` +
  `"UserId":${guid(r.userId)},"ViewerKind":"${r.viewerKind}","TenantId":"${r.tenantId}","BrandId":${guid(r.brandId)},` +
  `"DeveloperId":${guid(r.developerId)},"EventTime":${time(r.eventTime)},"StartedAt":${time(r.startedAt)},` +
  `"LastActivityAt":${time(r.lastActivityAt)},"DurationSeconds":${num(r.durationSeconds)},"IngestionTime":${ingestion}}\n`

const viewLine = (r: ViewFactRow, ingestion: string): string =>
  `{"FactId":${str(r.factId)},"SourceEventId":${str(r.sourceEventId)},"PropertyObjectViewId":"${r.propertyObjectViewId}",` +
  `"PropertyObjectId":"${r.propertyObjectId}","DeveloperId":"${r.developerId}","ProjectId":"${r.projectId}",` +
  `"BuildingId":"${r.buildingId}","LayoutGroupId":"${r.layoutGroupId}","LayoutId":"${r.layoutId}",` +
  `"SessionId":"${r.sessionId}","AnonymousId":"${r.anonymousId}","UserId":${guid(r.userId)},"ViewerKind":"${r.viewerKind}",` +
  `"ViewSource":${str(r.viewSource)},"ViewSourceRaw":${str(r.viewSourceRaw)},"IsClosed":${r.isClosed ? 1 : 0},` +
  `"ViewedAt":${time(r.viewedAt)},"LastActivityAt":${nullableTime(r.lastActivityAt)},"DurationSeconds":${num(r.durationSeconds)},` +
  `"EventTime":${time(r.eventTime)},"IngestionTime":${ingestion}}\n`

/** The JSONEachRow body of each insert table, rows in their order, IngestionTime stamped. */
export const jsonEachRowBodies = (rows: readonly FactRow[], ingestionTime: Instant): Map<string, string> => {
  const ingestionText = dateTimeText(ingestionTime)
  const ingestion = `"${ingestionText}"`
  const bodies = new Map<string, string>()
  for (const fact of rows) {
    let table: string
    let line: string
    if (fact.table === 'session_facts') {
      table = fact.table
      line = sessionLine(fact.row, ingestion)
    } else if (fact.table === 'property_object_view_facts') {
      table = fact.table
      line = viewLine(fact.row, ingestion)
    } else {
      const row = toTableRow(fact, ingestionText)
      table = row.table
      line = `${JSON.stringify(row.values)}\n`
    }
    bodies.set(table, (bodies.get(table) ?? '') + line)
  }
  return bodies
}
