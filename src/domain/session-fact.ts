import type { Guid } from './guid.js'
import type { Instant } from './instant.js'

/** One row of pin_dev_stats.session_facts, without IngestionTime (stamped at insert). */
export interface SessionFactRow {
  readonly factId: string
  readonly sourceEventId: string
  readonly sessionId: Guid
  readonly anonymousId: Guid
  readonly userId: Guid | null
  readonly viewerKind: 'Guest' | 'User'
  readonly tenantId: Guid
  readonly brandId: null
  readonly developerId: null
  readonly eventTime: Instant
  readonly startedAt: Instant
  readonly lastActivityAt: Instant
  readonly durationSeconds: number
}
