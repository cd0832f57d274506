/**
 * The ViewSource values we know by default. No seed lists them (they are our guess), so the list
 * is configuration (DEV_STATS_VIEW_SOURCES); the raw wire value is stored beside the
 * classification, so nothing is lost when a producer adds a source.
 */
export const DEFAULT_VIEW_SOURCES: readonly string[] = [
  'Catalog',
  'Search',
  'Map',
  'Chessboard',
  'Favorites',
  'Selection',
  'DirectLink',
  'Recommendation',
]

export const UNKNOWN_VIEW_SOURCE = 'Unknown'

/** One of the configured known values, or `Unknown`. */
export type ViewSource = string

export interface ClassifiedViewSource {
  readonly source: ViewSource
  readonly known: boolean
  /** The wire value as sent: a string as it is, another JSON value as its JSON text, null when absent. */
  readonly raw: string | null
}

const rawOf = (wire: unknown): string | null => {
  if (wire === undefined || wire === null) return null
  return typeof wire === 'string' ? wire : JSON.stringify(wire)
}

const ABSENT: ClassifiedViewSource = { source: UNKNOWN_VIEW_SOURCE, known: false, raw: null }
/** Each configured list's known values, classified once: a view record of a known source allocates nothing here. */
const knownOf = new WeakMap<readonly string[], ReadonlyMap<string, ClassifiedViewSource>>()
const classifiedKnown = (known: readonly string[]): ReadonlyMap<string, ClassifiedViewSource> => {
  let byWire = knownOf.get(known)
  if (!byWire) knownOf.set(known, (byWire = new Map(known.map((k) => [k, { source: k, known: true, raw: k }]))))
  return byWire
}

/** An unknown wire value is kept as Unknown (with a warning by the caller), never poison. */
export const classifyViewSource = (wire: unknown, known: readonly string[] = DEFAULT_VIEW_SOURCES): ClassifiedViewSource => {
  if (wire === undefined || wire === null) return ABSENT
  const hit = typeof wire === 'string' ? classifiedKnown(known).get(wire) : undefined
  return hit ?? { source: UNKNOWN_VIEW_SOURCE, known: false, raw: rawOf(wire) }
}
