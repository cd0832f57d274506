import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'

// Issue 35: every relative link of the README, the changelog and docs/ resolves: the file exists
// and, with a #fragment, the heading does (GitHub's anchor of a heading).
const DOCS = ['README.md', 'CHANGELOG.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f))]

/** The `../…` paths of a file's text that climb out of the repository, and any path of the machine's own. */
export const pathsOutside = (file: string, text: string): string[] => [
  ...[...text.matchAll(/(?<![\w./$-])((?:\.\.\/)+)[\w.-]+/g)].filter((m) => normalize(join(dirname(file), m[1] as string)).startsWith('..')).map((m) => m[0]),
  ...[...text.matchAll(/\/work\/(?:main|shared)\b/g)].map((m) => m[0]),
]

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export const anchorOf = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-')

const anchorsIn = (file: string): Set<string> =>
  new Set([...readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] as string)))

/** The relative links of a markdown text, outside code blocks and code spans. */
export const relativeLinks = (text: string): string[] =>
  [...text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t))

const broken = (file: string): string[] =>
  relativeLinks(readFileSync(file, 'utf8')).filter((link) => {
    const [path, fragment] = link.split('#') as [string, string | undefined]
    const target = path === '' ? file : normalize(join(dirname(file), path))
    if (target.startsWith('..') || !existsSync(target)) return true
    return fragment !== undefined && target.endsWith('.md') && !anchorsIn(target).has(fragment)
  })

describe('links in the README, the changelog and docs/', () => {
  it.each(DOCS)('%s: every relative link resolves', (file) => {
    expect(broken(file)).toEqual([])
  })

  it('finds a broken file and a broken anchor', () => {
    expect(relativeLinks('see [a](docs/none.md), [b](docs/kafka.md#nowhere), `[c](x.md)` and [d](https://x.org)')).toEqual(['docs/none.md', 'docs/kafka.md#nowhere'])
    expect(anchorOf("Re-ingest from a point in time: `dev-stats-ingest replay`")).toBe('re-ingest-from-a-point-in-time-dev-stats-ingest-replay')
  })

  // Issue 48: a clone stands on its own; the README pointed at the specification in a sibling folder.
  it('no tracked file refers to a path outside the repository', () => {
    const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter((f) => f !== '' && !/\.(png|tgz|gz)$/.test(f) && existsSync(f))
    const outside = files.filter((f) => f !== 'test/unit/docs/links.test.ts').flatMap((f) => pathsOutside(f, readFileSync(f, 'utf8')).map((p) => `${f}: ${p}`))
    expect(files.length).toBeGreaterThan(300)
    expect(outside).toEqual([])
    expect(pathsOutside('README.md', 'The specification is `../outside/docs/spec.md`, see /work/main.')).toEqual(['../outside', '/work/main'])
    expect(pathsOutside('docs/spec.md', 'in `../seeds/` (Russian)')).toEqual([])
    expect(pathsOutside('docs/spec.md', 'in `../../seeds/` (Russian)')).toEqual(['../../seeds'])
    expect(pathsOutside('src/adapters/kafka/kafkajs/a.ts', "import { a } from '../common/assignment.js'; cd \"$(dirname \"$0\")/..\"")).toEqual([])
  })
})
