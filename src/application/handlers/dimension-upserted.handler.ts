import * as E from 'fp-ts/lib/Either.js'
import { DIM_TABLE, upperDimRow, type UpperDimRow, type UpperLevel } from '../../domain/dimension-upsert.js'
import type { EventHandler, Interpretation } from './event-handler.js'

/** Spec §2 defaults of each upper level: `pin.chessboard.<level>-upserted.v1`, group `dev-stats-dim-<level>`. */
export const dimensionTopicOf = (level: UpperLevel): string => `pin.chessboard.${level}-upserted.v1`
export const dimensionGroupOf = (level: UpperLevel): string => `dev-stats-dim-${level}`

/** dim_<level> replica: every version is appended, readers take argMax by Version (UpsertedAt). */
export const dimensionUpsertedHandler =
  (level: UpperLevel) =>
  (topic = dimensionTopicOf(level), groupId = dimensionGroupOf(level)): EventHandler => ({
    name: `dim-${level}`,
    topic,
    groupId,
    interpret: ({ payload }, now) =>
      E.map((row: UpperDimRow): Interpretation => ({ kind: 'rows', rows: [{ table: DIM_TABLE[level], row }] }))(upperDimRow(level)(payload, now)),
  })
