import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import { checkColumns, dateTime, uint64 } from './column-limits.js'
import { decodeWith } from './decode-with.js'
import { LEVEL_ID_FIELD, parentLevels, type DimensionLevel } from './dimension-path.js'
import { checkEventTime } from './event-time.js'
import { GuidCodec, isEmptyGuid, type Guid } from './guid.js'
import { InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'

/** The five levels above the property object, each with its own `*-upserted` topic and `dim_*` table. */
export type UpperLevel = Exclude<DimensionLevel, 'property-object'>
export const UPPER_LEVELS: readonly UpperLevel[] = ['developer', 'project', 'building', 'layout-group', 'layout']

export type UpperDimTable = 'dim_developer' | 'dim_project' | 'dim_building' | 'dim_layout_group' | 'dim_layout'
export const DIM_TABLE: Readonly<Record<UpperLevel, UpperDimTable>> = {
  developer: 'dim_developer',
  project: 'dim_project',
  building: 'dim_building',
  'layout-group': 'dim_layout_group',
  layout: 'dim_layout',
}

/** One version of an upper level; readers take the row with the greatest Version per Id (argMax, never FINAL). */
export interface UpperDimRow {
  readonly level: UpperLevel
  readonly id: Guid
  /** The ids of every level above, by payload field name (DeveloperId, ProjectId, …). */
  readonly parents: Readonly<Record<string, Guid>>
  readonly name: string | null
  readonly upsertedAt: Instant
  /** UpsertedAt in epoch microseconds: the ReplacingMergeTree version. */
  readonly version: number
}

/** The level's Id, its path's parent ids, UpsertedAt and an optional Name; anything else is ignored (spec §7). */
const payloadCodec = (level: UpperLevel) =>
  t.intersection([
    t.type({
      Id: GuidCodec,
      UpsertedAt: InstantCodec,
      ...Object.fromEntries(parentLevels(level).map((l) => [LEVEL_ID_FIELD[l], GuidCodec])),
    }),
    t.partial({ Name: t.union([t.string, t.null]) }),
  ])

/**
 * Spec §7 poison of a dimension upsert: undecodable (a missing Id, parent id or UpsertedAt), an
 * id that is Guid.Empty, a default or future UpsertedAt, a value outside its column.
 */
export const upperDimRow =
  (level: UpperLevel) =>
  (payload: unknown, now: Instant): E.Either<Poison, UpperDimRow> => {
    const parentFields = parentLevels(level).map((l) => LEVEL_ID_FIELD[l])
    return pipe(
      decodeWith(payloadCodec(level))(payload),
      E.flatMap((p) => {
        const record = p as unknown as Record<string, Guid>
        if ([p.Id, ...parentFields.map((f) => record[f] as Guid)].some(isEmptyGuid))
          return E.left(poison('empty-id', `Id or a parent id (${parentFields.join(', ') || 'none'}) is Guid.Empty`))
        const version = p.UpsertedAt * 1000
        const row: UpperDimRow = {
          level,
          id: p.Id,
          parents: Object.fromEntries(parentFields.map((f) => [f, record[f] as Guid])),
          name: p.Name ?? null,
          upsertedAt: p.UpsertedAt,
          version,
        }
        return pipe(
          checkEventTime('UpsertedAt', p.UpsertedAt, now),
          E.flatMap(() => checkColumns([dateTime('UpsertedAt', p.UpsertedAt), uint64('Version', version)])),
          E.as(row),
        )
      }),
    )
  }
