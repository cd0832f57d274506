export const KNOWN_VIEW_SOURCES = [
  'Catalog',
  'Search',
  'Map',
  'Chessboard',
  'Favorites',
  'Selection',
  'DirectLink',
  'Recommendation',
] as const
export type ViewSource = (typeof KNOWN_VIEW_SOURCES)[number] | 'Unknown'

/** An unknown wire value is kept as Unknown (with a warning by the caller), never poison. */
export const classifyViewSource = (wire: unknown): { readonly source: ViewSource; readonly known: boolean } => {
  const match = KNOWN_VIEW_SOURCES.find((s) => s === wire)
  return match ? { source: match, known: true } : { source: 'Unknown', known: false }
}
