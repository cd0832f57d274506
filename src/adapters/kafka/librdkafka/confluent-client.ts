import { createRequire } from 'node:module'
import { ConfluentClientMissing } from './confluent-client-missing.js'
import type * as Confluent from '@confluentinc/kafka-javascript'

export { ConfluentClientMissing }

export type ConfluentModule = typeof Confluent

let loaded: ConfluentModule | undefined

/**
 * Loads @confluentinc/kafka-javascript on first use, never at import time, so that everything
 * else runs where its native build was left out. A synchronous require (it is a CommonJS native
 * addon) because the Broker port's `consumer()` is synchronous.
 */
export const confluentClient = (): ConfluentModule => {
  if (!loaded) {
    try {
      loaded = createRequire(import.meta.url)('@confluentinc/kafka-javascript') as ConfluentModule
    } catch (e) {
      throw new ConfluentClientMissing(e)
    }
  }
  return loaded
}
