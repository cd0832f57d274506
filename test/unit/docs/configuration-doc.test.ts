import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configurationDoc, documentedVariables, DOC_PATH } from '../../../scripts/configuration-doc.js'
import { SETTING_GROUPS } from '../../../src/composition/settings-catalog.js'

// Issue 35: docs/configuration.md is generated from the code that reads the settings, and every
// DEV_STATS_* variable src/ reads is in it, and nothing it names is unread.
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.[cm]?ts$/.test(e.name) ? [join(dir, e.name)] : []))

/** Each DEV_STATS_ name in src/ as written: `NAME`, or `PREFIX_<KEY>` where the code appends a key (`DEV_STATS_TOPIC_${key}`), or `PREFIX_*` for a family named in a message. */
export const variablesInSource = (texts: readonly string[]): Set<string> => {
  const found = new Set<string>()
  for (const text of texts) {
    for (const m of text.matchAll(/(?<![A-Za-z_])DEV_STATS_[A-Z0-9_]+/g)) {
      const name = m[0]
      const next = text[(m.index ?? 0) + name.length]
      found.add(!name.endsWith('_') ? name : next === '$' ? `${name}<KEY>` : `${name}*`)
    }
  }
  return found
}

export const undocumented = (read: Set<string>, documented: readonly string[]): string[] =>
  [...read].filter((v) => (v.endsWith('*') ? !documented.some((d) => d.startsWith(v.slice(0, -1))) : !documented.includes(v))).sort()

describe('docs/configuration.md', () => {
  // the catalog itself names them all: the code that reads them is what counts
  const read = variablesInSource(sources('src').filter((f) => !f.endsWith('settings-catalog.ts')).map((f) => readFileSync(f, 'utf8')))
  const tooling = SETTING_GROUPS.filter((g) => g.tooling).flatMap((g) => g.settings.map((s) => s.env))

  it('is what npm run docs:config writes', () => {
    expect(readFileSync(DOC_PATH, 'utf8')).toBe(configurationDoc())
  })

  it('documents every DEV_STATS_* variable src/ reads', () => {
    expect(read.size).toBeGreaterThan(40)
    expect(undocumented(read, documentedVariables())).toEqual([])
  })

  it('documents no variable src/ does not read, but for the repository scripts\' own (which scripts/ reads)', () => {
    expect(documentedVariables().filter((d) => !read.has(d) && !tooling.includes(d))).toEqual([])
    const repository = sources('scripts').concat(sources('test')).map((f) => readFileSync(f, 'utf8'))
    const shell = readdirSync('scripts').filter((f) => f.endsWith('.sh')).map((f) => readFileSync(join('scripts', f), 'utf8'))
    for (const name of tooling) expect([...repository, ...shell].some((t) => t.includes(name)), name).toBe(true)
  })

  it('the scan finds a variable read in a new way, and a documented one no longer read', () => {
    const code = "const limit = whole(env, 'DEV_STATS_NEW_LIMIT', 5); env[`DEV_STATS_TOPIC_${key}`]; // DEV_STATS_READ_API_* keys"
    const scanned = variablesInSource([code])
    expect([...scanned].sort()).toEqual(['DEV_STATS_NEW_LIMIT', 'DEV_STATS_READ_API_*', 'DEV_STATS_TOPIC_<KEY>'])
    expect(undocumented(scanned, documentedVariables())).toEqual(['DEV_STATS_NEW_LIMIT'])
  })
})
