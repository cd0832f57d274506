import { randomUUID } from 'node:crypto'
import { LEVEL_ID_FIELD, parentLevels, type DimensionPath } from '../../domain/dimension-path.js'
import { DIM_TABLE, type UpperLevel } from '../../domain/dimension-upsert.js'
import type { FactRow } from '../../domain/fact-row.js'
import { funnelRow, type FunnelStage } from '../../domain/funnel.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'

/** Test-data builders for the rows a FactStore receives. Times are whole seconds (DateTime). */
export const id = (): Guid => randomUUID() as Guid
export const at = (iso: string): Instant => Date.parse(iso)

export const dimPath = (developerId: Guid = id()): DimensionPath => ({
  developerId, projectId: id(), buildingId: id(), layoutGroupId: id(), layoutId: id(), propertyObjectId: id(),
})

export const sessionFact = (o: { sessionId?: Guid; userId?: Guid | null; durationSeconds?: number; factId?: string; at?: Instant } = {}): FactRow => {
  const factId = o.factId ?? id()
  const userId = o.userId === undefined ? id() : o.userId
  const t = o.at ?? at('2026-11-30T10:00:00Z')
  return {
    table: 'session_facts',
    row: {
      factId, sourceEventId: factId, sessionId: o.sessionId ?? id(), anonymousId: id(), userId,
      viewerKind: userId === null ? 'Guest' : 'User', tenantId: '00000000-0000-0000-0000-000000000000' as Guid,
      brandId: null, developerId: null, eventTime: t, startedAt: t, lastActivityAt: t + 60_000, durationSeconds: o.durationSeconds ?? 60,
    },
  }
}

/** One view fact; the open and the closed fact of one view share `viewId`. */
export const viewFact = (path: DimensionPath, sessionId: Guid, eventTime: Instant, closed = true, viewId: Guid = id()): FactRow => {
  const factId = id()
  return {
    table: 'property_object_view_facts',
    row: {
      ...path, factId, sourceEventId: factId, propertyObjectViewId: viewId, sessionId, anonymousId: id(), userId: null,
      viewerKind: 'Guest', viewSource: 'Catalog', viewSourceRaw: 'Catalog', isClosed: closed, viewedAt: eventTime,
      lastActivityAt: closed ? eventTime + 120_000 : null, durationSeconds: closed ? 120 : null, eventTime,
    },
  }
}

export const funnelFact = (stage: FunnelStage, path: DimensionPath, businessKey: Guid, eventTime: Instant): FactRow => ({
  table: 'funnel_daily',
  row: funnelRow(stage, path, businessKey, eventTime, id()),
})

export const dimFact = (path: DimensionPath, upsertedAt: Instant, name: string | null = 'Flat'): FactRow => ({
  table: 'dim_property_object',
  row: { ...path, name, upsertedAt, version: upsertedAt * 1000 },
})

/** A version of an upper dimension (developer … layout); parents are made up, readers only use Id, Name and Version. */
export const upperDimFact = (level: UpperLevel, dimId: Guid, upsertedAt: Instant, name: string | null): FactRow => {
  const parents = Object.fromEntries(parentLevels(level).map((l) => [LEVEL_ID_FIELD[l], id()]))
  return { table: DIM_TABLE[level], row: { level, id: dimId, parents, name, upsertedAt, version: upsertedAt * 1000 } } as FactRow
}
