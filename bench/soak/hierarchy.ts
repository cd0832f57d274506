import { LEVEL_ID_FIELD, parentLevels, type DimensionLevel } from '../../src/domain/dimension-path.js'
import type { Rng } from './random.js'

/** An entity of the chessboard hierarchy: its id, its parents' ids by payload field, its versions so far. */
export interface Entity {
  readonly level: DimensionLevel
  readonly id: string
  readonly parents: Readonly<Record<string, string>>
  /** Earliest and latest UpsertedAt (ms) produced: a new version goes above or below, never on one. */
  minMs: number
  maxMs: number
  versions: number
}

export const DIM_TABLE_OF: Readonly<Record<DimensionLevel, string>> = {
  developer: 'dim_developer',
  project: 'dim_project',
  building: 'dim_building',
  'layout-group': 'dim_layout_group',
  layout: 'dim_layout',
  'property-object': 'dim_property_object',
}

/**
 * The entities the traffic refers to. A property object is `known` once its upsert was produced;
 * facts only name known objects, except the late ones (upsert produced a few seconds after the
 * fact) and the ghosts (never produced: dimension-gap).
 */
export class Hierarchy {
  private readonly byLevel = new Map<DimensionLevel, Entity[]>()

  constructor(private readonly rng: Rng) {}

  all(level: DimensionLevel): readonly Entity[] {
    return this.byLevel.get(level) ?? []
  }

  /** A new entity of `level` under existing parents (made as needed); not yet in any pool when `known` is false. */
  create(level: DimensionLevel, known = true): Entity {
    const parents: Record<string, string> = {}
    const levels = parentLevels(level)
    const parentLevel = levels.at(-1)
    if (parentLevel) {
      const pool = this.all(parentLevel)
      const parent = pool.length > 0 && this.rng.chance(0.9) ? this.rng.pick(pool) : this.create(parentLevel)
      Object.assign(parents, parent.parents, { [LEVEL_ID_FIELD[parentLevel]]: parent.id })
    }
    const entity: Entity = { level, id: this.rng.uuid(), parents, minMs: 0, maxMs: 0, versions: 0 }
    if (known) this.add(entity)
    return entity
  }

  add(entity: Entity): void {
    const pool = this.byLevel.get(entity.level) ?? []
    pool.push(entity)
    this.byLevel.set(entity.level, pool)
  }

  /** The next version's UpsertedAt: newer than all so far, or (sometimes) older than all, never equal. */
  nextVersionMs(e: Entity, now: number): number {
    let at: number
    if (e.versions === 0) at = now - this.rng.int(0, 999)
    else if (this.rng.chance(0.2)) at = e.minMs - this.rng.int(1, 60_000)
    else at = Math.max(e.maxMs + 1, now - this.rng.int(0, 999))
    e.minMs = e.versions === 0 ? at : Math.min(e.minMs, at)
    e.maxMs = e.versions === 0 ? at : Math.max(e.maxMs, at)
    e.versions++
    return at
  }

  /** The whole path of a property object, by payload field (DeveloperId … LayoutId). */
  static path(po: Entity): Readonly<Record<string, string>> {
    return po.parents
  }
}
