import { createRequire } from 'node:module'
import { PortError } from '../../application/ports/retriable.js'
import type * as Confluent from '@confluentinc/kafka-javascript'

export type ConfluentModule = typeof Confluent

const INSTALL = [
  'DEV_STATS_BROKER=confluent needs the optional librdkafka client @confluentinc/kafka-javascript, and it does not load here',
  '(npm leaves it out when its native build fails: it needs a C++ compiler and Debian\'s -dev libraries). Install it with',
  '  bash scripts/install-librdkafka.sh',
  'which runs (as root for apt-get):',
  '  apt-get install -y g++ make python3 zlib1g-dev libssl-dev libzstd-dev liblz4-dev libsasl2-dev libcurl4-openssl-dev',
  '  CKJS_LINKING=dynamic npm_config_nodedir=<node\'s prefix, e.g. /usr> npm install --no-save @confluentinc/kafka-javascript@<version in package-lock.json>',
  '  (or CKJS_LINKING=dynamic npm rebuild @confluentinc/kafka-javascript when its folder is there but the build failed)',
  'or choose DEV_STATS_BROKER=kafkajs.',
].join('\n')

/** The optional librdkafka client is absent or its native part did not build. */
export class ConfluentClientMissing extends PortError {
  constructor(cause: unknown) {
    super(`${INSTALL}\ncause: ${String((cause as Error)?.message ?? cause).split('\n')[0]}`, false, { cause })
    this.name = 'ConfluentClientMissing'
  }
}

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
