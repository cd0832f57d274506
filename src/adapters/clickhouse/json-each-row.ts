import type { FactRow } from '../../domain/fact-row.js'
import type { FunnelRow } from '../../domain/funnel.js'
import type { Instant } from '../../domain/instant.js'
import type { SessionFactRow } from '../../domain/session-fact.js'
import type { ViewFactRow } from '../../domain/view-fact.js'
import type { BodyPool } from './body-pool.js'
import { BodyWriter, encoded } from './body-writer.js'
import { FUNNEL_INSERT_TABLE, toTableRow } from './clickhouse-row.mapper.js'
import { dateTimeText } from './datetime-text.js'

// The tables every session, view and funnel stage lands in, written as bytes in one pass: the same bytes
// JSON.stringify makes of toTableRow's object (json-each-row.test.ts holds them equal), without
// the object per row, the generic walk over it, or a string per line (a template literal made
// 1.8 KB of strings per 600-byte line, then the body was flattened and encoded again to send).
// The rare tables go through toTableRow.

/** Each line's constant parts: the key of the field that follows. */
const K = encoded({
  openFactId: '{"FactId":', sourceEventId: ',"SourceEventId":', sessionId: ',"SessionId":', anonymousId: ',"AnonymousId":',
  userId: ',"UserId":', viewerKind: ',"ViewerKind":', tenantId: ',"TenantId":', brandId: ',"BrandId":',
  developerId: ',"DeveloperId":', eventTime: ',"EventTime":', startedAt: ',"StartedAt":', lastActivityAt: ',"LastActivityAt":',
  durationSeconds: ',"DurationSeconds":', propertyObjectViewId: ',"PropertyObjectViewId":', propertyObjectId: ',"PropertyObjectId":',
  projectId: ',"ProjectId":', buildingId: ',"BuildingId":', layoutGroupId: ',"LayoutGroupId":', layoutId: ',"LayoutId":',
  viewSource: ',"ViewSource":', viewSourceRaw: ',"ViewSourceRaw":', closed: ',"IsClosed":1', open: ',"IsClosed":0',
  viewedAt: ',"ViewedAt":',
  openDeveloperId: '{"DeveloperId":', eventDate: ',"EventDate":', stage: ',"Stage":', businessKey: ',"BusinessKey":', close: '}\n',
})

const sessionLine = (w: BodyWriter, r: SessionFactRow, ingestion: Uint8Array): void => {
  w.raw(K.openFactId).json(r.factId)
    .raw(K.sourceEventId).json(r.sourceEventId)
    .raw(K.sessionId).json(r.sessionId)
    .raw(K.anonymousId).json(r.anonymousId)
    .raw(K.userId).json(r.userId)
    .raw(K.viewerKind).json(r.viewerKind)
    .raw(K.tenantId).json(r.tenantId)
    .raw(K.brandId).json(r.brandId)
    .raw(K.developerId).json(r.developerId)
    .raw(K.eventTime).time(r.eventTime)
    .raw(K.startedAt).time(r.startedAt)
    .raw(K.lastActivityAt).time(r.lastActivityAt)
    .raw(K.durationSeconds).num(r.durationSeconds)
    .raw(ingestion)
}

const viewLine = (w: BodyWriter, r: ViewFactRow, ingestion: Uint8Array): void => {
  w.raw(K.openFactId).json(r.factId)
    .raw(K.sourceEventId).json(r.sourceEventId)
    .raw(K.propertyObjectViewId).json(r.propertyObjectViewId)
    .raw(K.propertyObjectId).json(r.propertyObjectId)
    .raw(K.developerId).json(r.developerId)
    .raw(K.projectId).json(r.projectId)
    .raw(K.buildingId).json(r.buildingId)
    .raw(K.layoutGroupId).json(r.layoutGroupId)
    .raw(K.layoutId).json(r.layoutId)
    .raw(K.sessionId).json(r.sessionId)
    .raw(K.anonymousId).json(r.anonymousId)
    .raw(K.userId).json(r.userId)
    .raw(K.viewerKind).json(r.viewerKind)
    .raw(K.viewSource).json(r.viewSource)
    .raw(K.viewSourceRaw).json(r.viewSourceRaw)
    .raw(r.isClosed ? K.closed : K.open)
    .raw(K.viewedAt).time(r.viewedAt)
    .raw(K.lastActivityAt).nullableTime(r.lastActivityAt)
    .raw(K.durationSeconds).num(r.durationSeconds)
    .raw(K.eventTime).time(r.eventTime)
    .raw(ingestion)
}

/** funnel_events has no IngestionTime: funnel_daily's states do not keep it. */
const funnelLine = (w: BodyWriter, r: FunnelRow): void => {
  w.raw(K.openDeveloperId).json(r.developerId)
    .raw(K.projectId).json(r.projectId)
    .raw(K.buildingId).json(r.buildingId)
    .raw(K.layoutGroupId).json(r.layoutGroupId)
    .raw(K.layoutId).json(r.layoutId)
    .raw(K.propertyObjectId).json(r.propertyObjectId)
    .raw(K.eventDate).json(r.eventDate)
    .raw(K.stage).json(r.stage)
    .raw(K.businessKey).json(r.businessKey)
    .raw(K.close)
}

/** One table's insert: its JSONEachRow bytes and how many lines they hold. */
export interface InsertBody {
  readonly bytes: Uint8Array
  readonly lines: number
}

/** Bytes per line to start each body's buffer with (a session line is about 600, a view line 900). */
const LINE_BYTES_GUESS = 640

/** The JSONEachRow body of each insert table, rows in their order, IngestionTime stamped; in buffers from `pool` when given. */
export const jsonEachRowBodies = (rows: readonly FactRow[], ingestionTime: Instant, pool?: BodyPool): Map<string, InsertBody> => {
  const ingestionText = dateTimeText(ingestionTime)
  const ingestion = Buffer.from(`,"IngestionTime":${JSON.stringify(ingestionText)}}\n`)
  const writers = new Map<string, { writer: BodyWriter; lines: number }>()
  const writerOf = (table: string) => {
    let w = writers.get(table)
    if (w === undefined) writers.set(table, (w = { writer: new BodyWriter(rows.length * LINE_BYTES_GUESS, pool), lines: 0 }))
    w.lines++
    return w.writer
  }
  for (const fact of rows) {
    if (fact.table === 'session_facts') sessionLine(writerOf(fact.table), fact.row, ingestion)
    else if (fact.table === 'property_object_view_facts') viewLine(writerOf(fact.table), fact.row, ingestion)
    else if (fact.table === 'funnel_daily') funnelLine(writerOf(FUNNEL_INSERT_TABLE), fact.row)
    else {
      const { table, values } = toTableRow(fact, ingestionText)
      writerOf(table).utf8(`${JSON.stringify(values)}\n`)
    }
  }
  return new Map([...writers].map(([table, { writer, lines }]) => [table, { bytes: writer.bytes, lines }]))
}
