import * as E from 'fp-ts/lib/Either.js'
import type { DimensionPath } from '../../domain/dimension-path.js'
import { decodeEnvelope, type EventContext } from '../../domain/envelope.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import { poison, type Poison } from '../../domain/poison.js'
import { NO_WARNINGS, type EventHandler, type Interpretation } from '../handlers/event-handler.js'
import type { BrokerRecord } from '../ports/broker.port.js'
import { backoffDelay, type BackoffPolicy } from './backoff.js'
import { attemptOf } from './side-records.js'

export type EnrichRequest = Extract<Interpretation, { kind: 'enrich' }>

/**
 * What one record comes to, before any I/O. `context` (message id, trace parent, contract
 * version) and the handler's `warnings` are a decoded record's side facts for logs, metrics and
 * trace links; carried as they are, not copied into a notes object per record.
 */
export type Step =
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'poison'; readonly poison: Poison; readonly context?: EventContext }
  | { readonly kind: 'skip'; readonly reason: string; readonly context: EventContext }
  | { readonly kind: 'rows'; readonly rows: readonly FactRow[]; readonly context: EventContext; readonly warnings: readonly string[] }
  | { readonly kind: 'enrich'; readonly request: EnrichRequest; readonly attempt: number; readonly context: EventContext; readonly warnings: readonly string[] }

/**
 * Pure: decode the envelope, drop a message id already in this batch, let the handler decide.
 * `seen` holds the batch's message ids; the caller adds this one.
 */
export const stepOf = (r: BrokerRecord, handler: EventHandler, now: Instant, seen: ReadonlySet<string>): Step => {
  const envelope = decodeEnvelope(r)
  if (E.isLeft(envelope)) return { kind: 'poison', poison: envelope.left }
  const { context } = envelope.right
  if (seen.has(context.messageId)) return { kind: 'duplicate' }
  const result = handler.interpret(envelope.right, now)
  if (E.isLeft(result)) return { kind: 'poison', poison: result.left, context }
  const i = result.right
  if (i.kind === 'skip') return { kind: 'skip', reason: i.reason, context }
  const warnings = i.warnings ?? NO_WARNINGS
  return i.kind === 'rows' ? { kind: 'rows', rows: i.rows, context, warnings } : { kind: 'enrich', request: i, attempt: attemptOf(r), context, warnings }
}

/** What a looked-up dimension means for one record waiting on it. */
export type EnrichOutcome =
  | { readonly kind: 'rows'; readonly rows: readonly FactRow[]; readonly recovered: boolean }
  /** `unproven`: the maximum wait ran out before the dimension consumers' progress passed the window. */
  | { readonly kind: 'gap'; readonly poison: Poison; readonly unproven: boolean }
  /** `windowEnd`: set when the attempts are spent but the gap is not proven yet (kept on the copy). */
  | { readonly kind: 'park'; readonly attempt: number; readonly dueAt: Instant; readonly windowEnd?: Instant }

/** When the record's parking window closed, how far the dimension's consumers have stored (undefined: not known yet), and how long past the window to wait for that. */
export interface GapEvidence {
  readonly windowEnd: Instant
  readonly storedThrough: Instant | undefined
  readonly maxWaitMs: number
}

/** Longest wait between two looks at a record whose attempts are spent, while its gap is not proven. */
export const GAP_RECHECK_MAX_MS = 30_000

export const enrichOutcome = (
  request: EnrichRequest,
  attempt: number,
  path: DimensionPath | undefined,
  parking: { readonly maxAttempts: number; readonly backoff: BackoffPolicy },
  now: Instant,
  evidence?: GapEvidence,
): EnrichOutcome => {
  if (path) return { kind: 'rows', rows: request.complete(path), recovered: attempt > 0 }
  if (attempt + 1 < parking.maxAttempts) return { kind: 'park', attempt: attempt + 1, dueAt: now + backoffDelay(parking.backoff, attempt + 1) }
  // A gap is proven once every dimension produced before the window closed is stored. A record
  // never parked (maxAttempts 1) has no window to wait out.
  if (attempt === 0 || !evidence) return { kind: 'gap', poison: gap(request.propertyObjectId, attempt + 1), unproven: false }
  const { windowEnd, storedThrough, maxWaitMs } = evidence
  if (storedThrough !== undefined && storedThrough >= windowEnd) return { kind: 'gap', poison: gap(request.propertyObjectId, attempt + 1), unproven: false }
  // Progress unknown (no read yet, reads failing, a partition missing from them) or behind: wait,
  // but never past the maximum wait, so that a frozen progress cannot hold a record forever.
  const deadline = windowEnd + maxWaitMs
  if (now >= deadline) return { kind: 'gap', poison: unprovenGap(request.propertyObjectId, attempt + 1, maxWaitMs, storedThrough), unproven: true }
  return { kind: 'park', attempt, dueAt: Math.min(deadline, now + Math.min(GAP_RECHECK_MAX_MS, backoffDelay(parking.backoff, attempt))), windowEnd }
}

const gap = (propertyObjectId: Guid, attempts: number): Poison =>
  poison('dimension-gap', `dim_property_object has no row for ${propertyObjectId} after ${attempts} attempts`)

const unprovenGap = (propertyObjectId: Guid, attempts: number, maxWaitMs: number, storedThrough: Instant | undefined): Poison =>
  poison(
    'dimension-gap',
    `dim_property_object has no row for ${propertyObjectId} after ${attempts} attempts and ${maxWaitMs} ms past the window; ` +
      `the dimension consumers' progress did not pass the window (${storedThrough === undefined ? 'never known' : `known through ${new Date(storedThrough).toISOString()}`})`,
  )
