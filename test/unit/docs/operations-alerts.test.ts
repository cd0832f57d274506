import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const DOC = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8')

describe('docs/operations.md: the alert rules', () => {
  it('names every alert of the shipped rules', () => {
    const rules = readFileSync(fileURLToPath(new URL('../../../ops/prometheus/dev-stats.rules.yml', import.meta.url)), 'utf8')
    const alerts = [...rules.matchAll(/- alert: (\S+)/g)].map((m) => m[1] as string)
    expect(alerts).toHaveLength(4)
    expect(alerts.filter((a) => !DOC.includes(`\`${a}\``))).toEqual([])
  })
})
