import { DEFAULT_VIEW_SOURCES } from '../../domain/view-source.js'

/** Settings a handler may read, from configuration (e.g. DEV_STATS_VIEW_SOURCES). */
export interface HandlerSettings {
  /** The ViewSource values classified as known; any other is stored as Unknown with its raw value. */
  readonly viewSources: readonly string[]
}

export const DEFAULT_HANDLER_SETTINGS: HandlerSettings = { viewSources: DEFAULT_VIEW_SOURCES }

export const unknownViewSourceWarning = (raw: string | null): string => `unknown ViewSource ${raw ?? '(absent)'} stored as Unknown (raw value kept)`
