import { createRequire } from 'node:module'
import { OptionalPackageMissing } from '../optional-package-missing.js'

const INSTALL = [
  'DEV_STATS_STORE=embedded needs the optional package chdb (ClickHouse in-process, about 550 MB of native libraries),',
  'and it is not installed here (an install with --omit=optional leaves it out). Install it with',
  '  npm install chdb@^3.4.0',
  'or choose DEV_STATS_STORE=clickhouse (a ClickHouse server) or memory.',
].join('\n')

/** The optional chdb package is absent: the embedded store cannot open. */
export class EmbeddedStoreMissing extends OptionalPackageMissing {
  constructor(cause: unknown) {
    super('EmbeddedStoreMissing', INSTALL, cause)
  }
}

/** Checks that chdb resolves, without loading its native library (that happens on first use). */
export const requireChdb = (): void => {
  try {
    createRequire(import.meta.url).resolve('chdb/connection')
  } catch (e) {
    throw new EmbeddedStoreMissing(e)
  }
}
