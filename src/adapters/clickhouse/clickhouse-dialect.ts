import type { Dialect } from './sql-fragment.js'

/**
 * Server-side query parameters ({name:Type}) arrived in ClickHouse 19.x; the Debian 18.16
 * server rejects them ("Unknown setting param_x"). Anything older than 20 gets the inline
 * renderer, which is correct everywhere, so being conservative costs nothing.
 */
export const dialectFor = (version: string): Dialect => {
  const major = Number(/^(\d+)\./.exec(version)?.[1] ?? 0)
  return major >= 20 ? 'bound' : 'inline'
}
