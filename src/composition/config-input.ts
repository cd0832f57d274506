import { ConfigError } from './config-error.js'
import { loadConfig, type IngestConfig } from './config.js'
import { settingProblems } from './setting-rules.js'
import { unknownConfigKeys, unknownSettingsError } from './unknown-settings.js'

/** Every field optional, at every depth; arrays are taken whole. */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { readonly [K in keyof T]?: DeepPartial<T[K]> } : T

/**
 * The configuration a host passes: any subset of IngestConfig. What is left out takes the default
 * the environment variable of the same setting documents (docs/configuration.md): e.g.
 * `{ broker: 'kafkajs', store: 'clickhouse', clickhouse: { url: 'http://ch:8123' } }`.
 */
export type IngestSettings = DeepPartial<IngestConfig>

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const merge = (base: unknown, over: unknown): unknown => {
  if (over === undefined) return base
  if (!isPlainObject(base) || !isPlainObject(over)) return over
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v)
  return out
}

/** The defaults (those of an empty environment) with the host's settings over them, validated; a key that is no setting is refused. */
export const resolveConfig = (settings: IngestSettings = {}): IngestConfig => {
  const defaults = loadConfig({})
  const unknown = unknownSettingsError(unknownConfigKeys(settings, defaults))
  if (unknown) throw unknown
  const config = merge(defaults, settings) as IngestConfig
  const [first, ...more] = settingProblems(config)
  if (first) throw new ConfigError(`config.${first.rule.path}`, [first.problem, ...more.map((p) => `config.${p.rule.path} ${p.problem}`)].join('; '))
  return config
}
