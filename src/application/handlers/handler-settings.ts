import { DEFAULT_VIEW_SOURCES } from '../../domain/view-source.js'

/** Settings a handler may read, from configuration (e.g. DEV_STATS_VIEW_SOURCES). */
export interface HandlerSettings {
  /** The ViewSource values classified as known; any other is stored as Unknown with its raw value. */
  readonly viewSources: readonly string[]
}

export const DEFAULT_HANDLER_SETTINGS: HandlerSettings = { viewSources: DEFAULT_VIEW_SOURCES }

/** Names the rule, not the value (producer text never reaches a log line: spec §9); the row keeps the raw value. */
export const unknownViewSourceWarning = (raw: string | null): string =>
  raw === null ? 'ViewSource absent: stored as Unknown' : 'ViewSource not among DEV_STATS_VIEW_SOURCES: stored as Unknown (the raw value kept in ViewSourceRaw)'
