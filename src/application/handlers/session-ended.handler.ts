import * as E from 'fp-ts/lib/Either.js'
import type { SessionFactRow } from '../../domain/session-fact.js'
import { sessionEndedFact } from '../../domain/session-ended.js'
import type { EventHandler, Interpretation } from './event-handler.js'

export const SESSION_ENDED_TOPIC = 'pin.user-activity.session-ended.v1'
export const SESSION_ENDED_GROUP = 'dev-stats-session-ended'

const asRows = E.map((row: SessionFactRow): Interpretation => ({ kind: 'rows', rows: [{ table: 'session_facts', row }] }))

/** session_facts (seed 000): no enrichment, no dimension lookup. */
export const sessionEndedHandler = (topic = SESSION_ENDED_TOPIC, groupId = SESSION_ENDED_GROUP): EventHandler => ({
  name: 'session-ended',
  topic,
  groupId,
  interpret: ({ context, payload }, now) => asRows(sessionEndedFact(context, payload, now)),
})
