import type { Instant } from '../../domain/instant.js'

export interface Clock {
  now(): Instant
}
