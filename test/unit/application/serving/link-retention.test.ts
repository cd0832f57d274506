import { describe, expect, it } from 'vitest'
import type { LinkPartition, LinkPartitions } from '../../../../src/application/ports/link-partitions.port.js'
import { LinkRetention } from '../../../../src/application/serving/link-retention.js'
import { silentLogger } from '../../../../src/adapters/observability/silent-logger.js'
import { at } from '../../../../src/testing/contracts/fact-rows.mother.js'

const NOW = at('2026-12-04T12:00:00Z') // 30 days of lateness: link rows kept from 2026-10-02 on

class FakePartitions implements LinkPartitions {
  dropped: LinkPartition[] = []
  failDrop = false
  lists = 0
  constructor(public held: LinkPartition[]) {}
  async list(): Promise<readonly LinkPartition[]> {
    this.lists++
    return this.held
  }
  async drop(p: LinkPartition): Promise<void> {
    if (this.failDrop) throw new Error('server gone')
    this.dropped.push(p)
    this.held = this.held.filter((h) => h.table !== p.table || h.partition !== p.partition)
  }
}

const of = (table: string, ...partitions: string[]): LinkPartition[] => partitions.map((partition) => ({ table, partition }))

describe('LinkRetention', () => {
  it('drops the months of every link table older than the window, and nothing newer', async () => {
    const store = new FakePartitions([...of('view_links', '202608', '202609', '202610', '202612'), ...of('session_links', '202609', '202611'), ...of('session_view_links', '202610')])
    const counted: number[] = []
    const retention = new LinkRetention(store, 30, { now: () => NOW }, silentLogger, (n) => counted.push(n))
    expect(await retention.pass()).toBe(3)
    expect(store.dropped).toEqual([...of('view_links', '202608', '202609'), ...of('session_links', '202609')])
    expect(counted.reduce((a, b) => a + b, 0)).toBe(3)
    expect(await retention.pass()).toBe(0)
  })

  it('a longer lateness keeps more', async () => {
    const store = new FakePartitions(of('view_links', '202601', '202609'))
    expect(await new LinkRetention(store, 365, { now: () => NOW }, silentLogger).pass()).toBe(0)
  })

  it('a failed pass is reported and the next one drops what is left', async () => {
    const store = new FakePartitions(of('view_links', '202608'))
    store.failDrop = true
    const warnings: string[] = []
    const logger = { ...silentLogger, warn: (_: unknown, m: string) => void warnings.push(m) }
    const retention = new LinkRetention(store, 30, { now: () => NOW }, logger)
    await expect(retention.pass()).rejects.toThrow('server gone')
    expect(warnings).toEqual(['link retention pass failed; tried again at the next interval'])
    store.failDrop = false
    expect(await retention.pass()).toBe(1)
  })

  it('one pass at a time: a second call joins the one running', async () => {
    const store = new FakePartitions(of('view_links', '202608'))
    const retention = new LinkRetention(store, 30, { now: () => NOW }, silentLogger)
    const [a, b] = await Promise.all([retention.pass(), retention.pass()])
    expect([a, b]).toEqual([1, 1])
    expect(store.lists).toBe(1)
  })
})
