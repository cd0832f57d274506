import { describe, expect, it } from 'vitest'
import { parseOptions } from '../../../bench/e2e/options.js'

describe('bench:e2e --all-topics --workers', () => {
  it('is one worker unless given, and takes a comma list of worker counts', () => {
    expect(parseOptions(['--all-topics']).workers).toEqual([1])
    expect(parseOptions(['--all-topics', '--workers', '1,2']).workers).toEqual([1, 2])
  })

  it('refuses what is not a count, and --workers without --all-topics', () => {
    for (const bad of ['0', '1.5', 'x', '1,,2']) expect(() => parseOptions(['--all-topics', '--workers', bad])).toThrow(/--workers takes worker counts/)
    expect(() => parseOptions(['--workers', '2'])).toThrow(/--workers goes with --all-topics/)
  })
})
