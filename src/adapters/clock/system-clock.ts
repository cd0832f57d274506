import type { Clock } from '../../application/ports/clock.port.js'

export const systemClock: Clock = { now: () => Date.now() }
