import type { DateRange, HierarchyFilter, Period, ReadModel, SessionTotals, StageCounts } from '../../application/ports/read-model.port.js'
import { FUNNEL_STAGES, type FunnelStage } from '../../domain/funnel.js'
import type { Guid } from '../../domain/guid.js'
import { latestBy, type InMemoryTables } from './in-memory-tables.js'

/** The read side computed the way the ClickHouse queries do: argMax by IngestionTime, uniq per stage. */
export class InMemoryReadModel implements ReadModel {
  constructor(private readonly tables: InMemoryTables) {}

  async sessionTotals(developerId: Guid, period: Period): Promise<SessionTotals> {
    const sessionIds = new Set(
      this.tables
        .of('property_object_view_facts')
        .filter(({ fact: { row } }) => row.developerId === developerId && row.eventTime >= period.from && row.eventTime < period.to)
        .map(({ fact }) => fact.row.sessionId),
    )
    const facts = this.tables.of('session_facts').filter((r) => sessionIds.has(r.fact.row.sessionId))
    const sessions = [...latestBy(facts, (r) => r.fact.row.sessionId, (r) => r.ingestionTime).values()].map((r) => r.fact.row)
    const durations = sessions.map((s) => s.durationSeconds)
    return {
      sessions: sessions.length,
      guestSessions: sessions.filter((s) => s.viewerKind === 'Guest').length,
      userSessions: sessions.filter((s) => s.viewerKind === 'User').length,
      totalDurationSeconds: durations.reduce((a, b) => a + b, 0),
      // reduce, not Math.min(...xs): a spread of many sessions overflows the call stack
      minDurationSeconds: durations.length ? durations.reduce((a, b) => Math.min(a, b)) : 0,
      maxDurationSeconds: durations.reduce((a, b) => Math.max(a, b), 0),
    }
  }

  async funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    const keys = new Map<FunnelStage, Set<string>>(FUNNEL_STAGES.map((s) => [s, new Set()]))
    for (const { fact } of this.tables.of('funnel_daily')) {
      const row = fact.row
      if (row.developerId !== developerId || row.eventDate < range.fromDate || row.eventDate > range.toDate) continue
      if (!matches(row, filter)) continue
      keys.get(row.stage)?.add(row.businessKey)
    }
    return Object.fromEntries(FUNNEL_STAGES.map((s) => [s, keys.get(s)?.size ?? 0])) as StageCounts
  }
}

const matches = (row: Required<HierarchyFilter>, filter: HierarchyFilter): boolean =>
  (Object.keys(filter) as (keyof HierarchyFilter)[]).every((k) => filter[k] === undefined || filter[k] === row[k])
