import type { Guid } from './guid.js'

/** The hierarchy of a property object: Developer → Project → Building → LayoutGroup → Layout → PropertyObject. */
export interface DimensionPath {
  readonly developerId: Guid
  readonly projectId: Guid
  readonly buildingId: Guid
  readonly layoutGroupId: Guid
  readonly layoutId: Guid
  readonly propertyObjectId: Guid
}

export type DimensionLevel = 'developer' | 'project' | 'building' | 'layout-group' | 'layout' | 'property-object'

export const DIMENSION_LEVELS: readonly DimensionLevel[] = [
  'developer',
  'project',
  'building',
  'layout-group',
  'layout',
  'property-object',
]

/** Payload field of each level's id, in hierarchy order. */
export const LEVEL_ID_FIELD: Readonly<Record<DimensionLevel, string>> = {
  developer: 'DeveloperId',
  project: 'ProjectId',
  building: 'BuildingId',
  'layout-group': 'LayoutGroupId',
  layout: 'LayoutId',
  'property-object': 'PropertyObjectId',
}

/** The parent levels whose ids an upsert of `level` must carry. */
export const parentLevels = (level: DimensionLevel): readonly DimensionLevel[] =>
  DIMENSION_LEVELS.slice(0, DIMENSION_LEVELS.indexOf(level))
