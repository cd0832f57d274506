import { describe, expect, it } from 'vitest'
import { parseDlqArgs, UsageError } from '../../../src/cli/dlq/dlq-args.js'
import { progressOn } from '../../../src/cli/dlq/progress.js'

describe('npm run dlq -- arguments', () => {
  it.each([
    [[], { name: 'help' }],
    [['--help'], { name: 'help' }],
    [['summary'], { name: 'summary', topic: undefined }],
    [['show', '--topic', 'T', '--limit', '5'], { name: 'show', topic: 'T', limit: 5, filter: { reason: undefined, since: undefined, until: undefined } }],
    [
      ['replay', '--reason', 'dimension-gap', '--since', '2026-11-30T00:00:00Z', '--dry-run'],
      { name: 'replay', topic: undefined, dryRun: true, maxPerSecond: undefined, filter: { reason: 'dimension-gap', since: Date.parse('2026-11-30T00:00:00Z'), until: undefined } },
    ],
  ])('%j', (argv, expected) => {
    expect(parseDlqArgs(argv)).toEqual(expected)
  })

  it.each([
    [['show'], /needs --topic/],
    [['show', '--topic', 'T', '--limit', '0'], /--limit/],
    [['replay', '--since', 'yesterday'], /ISO-8601/],
    // read in the zone of whoever runs it, before issue 39: a time must carry its zone, as replay's --from does
    [['replay', '--since', '2026-11-30T00:00'], /with its zone/],
    [['replay', '--until', '2026-11-30T00:00:00'], /--until must be an ISO-8601 date-time with its zone/],
    [['summary', '--reason', 'x'], /does not take --reason/],
    [['replay', '--bogus'], /bogus/],
    [['replay', '--rate', '-3'], /--rate/],
    [['purge'], /unknown command/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseDlqArgs(argv)).toThrow(UsageError)
    expect(() => parseDlqArgs(argv)).toThrow(message)
  })
})

describe('replay progress', () => {
  const capture = (isTTY: boolean) => {
    const out: string[] = []
    let t = 0
    const p = progressOn({ isTTY, write: (s: string) => out.push(s) }, () => (t += 400))
    p.started('T', 4)
    p.advanced(2, 1)
    p.advanced(4, 2)
    p.finished()
    return out
  }

  it('draws a bar on a terminal', () => {
    expect(capture(true).at(-1)).toBe(`\r[${'#'.repeat(30)}] T: 4/4 dead letters read, 2 matching\n`)
  })

  it('prints plain lines elsewhere, the final count last', () => {
    const out = capture(false)
    expect(out[0]).toBe('T: 4 dead letter(s) to read\n')
    expect(out.at(-1)).toBe('T: 4/4 dead letters read, 2 matching\n')
    expect(out.join('')).not.toContain('\r')
  })
})
