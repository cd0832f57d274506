import { ConfigError } from '../../index.js'

/** A whole number of seconds from `env[name]` within min–max; blank or unset: the default. */
export const secondsSetting = (env: NodeJS.ProcessEnv, name: string, range: { readonly min: number; readonly max: number; readonly fallback: number }): number => {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return range.fallback
  const n = /^\d{1,4}$/.test(raw.trim()) ? Number(raw) : Number.NaN
  if (!(n >= range.min && n <= range.max)) throw new ConfigError(name, `must be a whole number of seconds ${range.min}-${range.max}, got "${raw}"`)
  return n
}
