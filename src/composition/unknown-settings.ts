import { CONSUMERS } from '../application/consumers/consumer-registry.js'
import { ConfigError } from './config-error.js'
import { SETTING_GROUPS } from './settings-catalog.js'

/**
 * A DEV_STATS_* variable, or a key of a host's `config`, that nothing reads: most often a typo
 * (the read API's issuer variable written with an extra `JWT_`) that would otherwise turn a
 * setting, a security check among them, silently off.
 */
export interface UnknownSetting {
  readonly name: string
  /** The known name nearest to it (fewest single-character edits). */
  readonly closest: string
}

const PREFIX = 'DEV_STATS_'

const knownVariables = (): readonly string[] =>
  SETTING_GROUPS.flatMap((g) => g.settings.map((s) => s.env)).flatMap((name) =>
    name.endsWith('_<KEY>') ? CONSUMERS.map(({ key }) => name.replace('<KEY>', key)) : [name],
  )

/** Levenshtein distance: insertions, deletions and substitutions of one character each. */
export const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i]
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

const closestOf = (name: string, known: readonly string[]): string =>
  known.reduce((best, k) => (editDistance(name, k) < editDistance(name, best) ? k : best))

/** Every DEV_STATS_* variable of `env` that no setting, command or repository script reads. */
export const unknownVariables = (env: Readonly<Record<string, string | undefined>>): readonly UnknownSetting[] => {
  const known = knownVariables()
  return Object.keys(env)
    .filter((name) => name.startsWith(PREFIX) && !known.includes(name))
    .sort()
    .map((name) => ({ name, closest: closestOf(name, known) }))
}

/** Why an unknown setting is refused: `is not a setting (did you mean …?)`. */
export const describeUnknown = (u: UnknownSetting): string => `is not a setting (did you mean ${u.closest}?)`

/** A ConfigError naming every setting of the list, the first as its `setting`; nothing for none. */
export const unknownSettingsError = (unknown: readonly UnknownSetting[]): ConfigError | undefined => {
  const [first, ...more] = unknown
  return first && new ConfigError(first.name, [describeUnknown(first), ...more.map((u) => `${u.name} ${describeUnknown(u)}`)].join('; '))
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Paths a host may set that the defaults leave out, and subtrees taken whole (their own rules check them). */
const OPTIONAL_PATHS = ['clickhouse.cluster', 'clickhouse.ca', 'engine.catchUp']
const WHOLE_PATHS = ['kafka.security', 'engine.catchUp']

const leafPaths = (o: unknown, prefix = ''): string[] =>
  isPlainObject(o) && !WHOLE_PATHS.includes(prefix)
    ? Object.entries(o).flatMap(([k, v]) => [`${prefix}${prefix ? '.' : ''}${k}`, ...leafPaths(v, `${prefix}${prefix ? '.' : ''}${k}`)])
    : []

/** Every key of a host's `config` that is not a setting, as `config.<path>`, against the defaults' shape. */
export const unknownConfigKeys = (settings: unknown, defaults: unknown): readonly UnknownSetting[] => {
  const known = [...leafPaths(defaults), ...OPTIONAL_PATHS]
  return leafPaths(settings)
    .filter((path) => !known.includes(path) && !WHOLE_PATHS.some((w) => path.startsWith(`${w}.`)))
    .filter((path, _, all) => !all.some((p) => p !== path && path.startsWith(`${p}.`) && !known.includes(p)))
    .map((path) => {
      const parent = path.slice(0, path.lastIndexOf('.') + 1)
      const siblings = known.filter((k) => k.startsWith(parent) && !k.slice(parent.length).includes('.'))
      return { name: `config.${path}`, closest: `config.${closestOf(path, siblings.length > 0 ? siblings : known)}` }
    })
}
