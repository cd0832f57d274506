import { OptionalPackageMissing } from '../../optional-package-missing.js'

// Its own module: the public entry exports this error, and its types must not reach the optional
// client's typings (a host installed with --omit=optional has none).
const INSTALL = [
  'DEV_STATS_BROKER=confluent needs the optional librdkafka client @confluentinc/kafka-javascript, and it does not load here',
  '(npm leaves it out when its native build fails: it needs a C++ compiler and Debian\'s -dev libraries). Install it',
  'in this repository with',
  '  bash scripts/install-librdkafka.sh',
  'which runs (as root for apt-get):',
  '  apt-get install -y g++ make python3 zlib1g-dev libssl-dev libzstd-dev liblz4-dev libsasl2-dev libcurl4-openssl-dev',
  '  CKJS_LINKING=dynamic npm_config_nodedir=<node\'s prefix, e.g. /usr> npm install --no-save @confluentinc/kafka-javascript@<version in package-lock.json>',
  '  (or CKJS_LINKING=dynamic npm rebuild @confluentinc/kafka-javascript when its folder is there but the build failed);',
  'in a host project, the same apt-get line, then CKJS_LINKING=dynamic npm install @confluentinc/kafka-javascript@^1.10.1;',
  'or choose DEV_STATS_BROKER=kafkajs.',
].join('\n')

/** The optional librdkafka client is absent or its native part did not build. */
export class ConfluentClientMissing extends OptionalPackageMissing {
  constructor(cause: unknown) {
    super('ConfluentClientMissing', INSTALL, cause)
  }
}
