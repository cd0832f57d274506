import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { tableIn, topicTable } from '../../../scripts/topic-table.js'

describe("README's topic table", () => {
  it('is the one generated from the consumer registry (regenerate: npm run docs:topics)', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
    expect(tableIn(readme)).toBe(topicTable())
  })
})
