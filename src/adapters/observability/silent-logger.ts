import type { Logger } from '../../application/ports/logger.port.js'

const nothing = (): void => undefined

/** The library's logger when the host gives none: a library writes nothing of its own. */
export const silentLogger: Logger = { debug: nothing, info: nothing, warn: nothing, error: nothing }
