import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { tableIn, topicTable } from '../../../scripts/topic-table.js'

describe("docs/operations.md's topic table", () => {
  it('is the one generated from the consumer registry (regenerate: npm run docs:topics)', () => {
    const doc = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8')
    expect(tableIn(doc)).toBe(topicTable())
  })
})
