import { describe, expect, it } from 'vitest'
import { parseReplayArgs, UsageError } from '../../../src/cli/replay/replay-args.js'

const KEYS = ['SESSION_ENDED', 'LEAD_CREATED']
const T = Date.parse('2026-11-01T00:00:00Z')

describe('npm run replay -- arguments', () => {
  it.each([
    [[], { name: 'help' }],
    [['--help'], { name: 'help' }],
    [['--consumer', 'SESSION_ENDED', '--from', '2026-11-01T00:00:00Z', '--dry-run'], { name: 'replay', consumers: ['SESSION_ENDED'], from: T, toLatest: false, dryRun: true }],
    [['--consumer', 'all', '--from', '2026-11-01T03:00:00+03:00'], { name: 'replay', consumers: 'all', from: T, toLatest: false, dryRun: false }],
    [['--consumer', 'LEAD_CREATED,SESSION_ENDED', '--from', '2026-11-01T00:00Z', '--to-latest'], { name: 'replay', consumers: ['LEAD_CREATED', 'SESSION_ENDED'], from: T, toLatest: true, dryRun: false }],
  ])('%j', (argv, expected) => {
    expect(parseReplayArgs(argv, KEYS)).toEqual(expected)
  })

  it.each([
    [['--from', '2026-11-01T00:00:00Z'], /--consumer is required/],
    [['--consumer', 'SESSION_ENDED'], /--from is required/],
    [['--consumer', 'session-ended', '--from', '2026-11-01T00:00:00Z'], /unknown consumer session-ended: one of SESSION_ENDED, LEAD_CREATED or all/],
    [['--consumer', 'SESSION_ENDED', '--from', '2026-11-01'], /with its zone/],
    [['--consumer', 'SESSION_ENDED', '--from', '2026-11-01T00:00:00'], /with its zone/],
    [['--consumer', 'SESSION_ENDED', '--from', 'yesterday'], /ISO-8601/],
    [['--consumer', 'SESSION_ENDED', '--from', '2026-11-01T00:00:00Z', '--group', 'x'], /group/],
    [['now'], /unexpected argument/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseReplayArgs(argv, KEYS)).toThrow(UsageError)
    expect(() => parseReplayArgs(argv, KEYS)).toThrow(message)
  })
})
