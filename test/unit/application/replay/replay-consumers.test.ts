import * as E from 'fp-ts/lib/Either.js'
import { afterEach, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../../src/application/consumers/consumer-registry.js'
import { resolveConsumer } from '../../../../src/application/consumers/consumer-topics.js'
import { leadCreatedHandler } from '../../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../../src/application/handlers/property-object-upserted.handler.js'
import { getConversionFunnel } from '../../../../src/application/read/get-conversion-funnel.js'
import { OffsetsNotApplied } from '../../../../src/application/ports/consumer-group-admin.port.js'
import { ReplayNotApplied, replayConsumers, type ReplayRequest } from '../../../../src/application/replay/replay-consumer.js'
import type { Guid } from '../../../../src/domain/guid.js'
import { binaryRecord, leadCreatedPayload, path, propertyObjectUpsertedPayload } from '../../../support/events.js'
import { Harness, waitUntil } from '../../../support/harness.js'

// Seed 003 over the in-memory broker: leads arrive while the flag keeps their consumer off; after
// `replay --consumer LEAD_CREATED --from <before the first lead>` and the flag on, each is counted once.
const leads = leadCreatedHandler()
const dims = propertyObjectUpsertedHandler()
const LEAD_CREATED = resolveConsumer(CONSUMERS.find((c) => c.key === 'LEAD_CREATED')!)
const T0 = Date.parse('2026-11-30T08:00:00Z')
const at = (minutes: number) => T0 + minutes * 60_000
const replay = (from: number, o: Partial<ReplayRequest> = {}) =>
  replayConsumers(h.broker.groupAdmin())([LEAD_CREATED], { from, dryRun: false, toLatest: false, ...o })
let h: Harness

afterEach(async () => h?.stopAll())

const setUp = async () => {
  h = new Harness([leads, dims])
  await h.start(dims.name)
  const p = path()
  h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(p)))
  await waitUntil(() => h.caughtUp(dims), 5000, 'dimension')
  // 3 leads at 08:10, 3 at 08:20, with their broker timestamps
  for (const minutes of [10, 20]) {
    h.broker.log.appendAll(Array.from({ length: 3 }, () => binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: p.PropertyObjectId }))), at(minutes))
  }
  const leadsCounted = async () => {
    const report = await getConversionFunnel(h.readModel, () => ({ enabled: true }))({ developerId: p.DeveloperId as Guid }, { fromDate: '2026-11-30', toDate: '2026-11-30' }, {})
    return E.isRight(report) ? report.right.find((s) => s.stage === 'Leads')?.count : undefined
  }
  return { leadsCounted }
}
const committed = async (topic = LEAD_CREATED.topics.source) => Object.fromEntries(await h.broker.committedOffsets(LEAD_CREATED.groupId, topic))

describe('replay a consumer from a point in time (in-memory broker)', () => {
  it('leads that arrived while the flag was off: replayed, then replayed again, each counted once', async () => {
    const { leadsCounted } = await setUp()
    const first = await replay(at(0))
    expect(first.kind).toBe('applied')
    expect(first.replays[0]?.plan.every((p) => p.next === 0)).toBe(true)
    await h.start(leads.name)
    await waitUntil(() => h.caughtUp(leads), 5000, 'leads')
    expect(await leadsCounted()).toBe(6)

    await h.stopAll()
    const again = await replay(at(0))
    expect(again.replays[0]?.plan.reduce((n, p) => n + p.reread, 0)).toBe(6)
    await h.start(leads.name)
    await waitUntil(() => h.caughtUp(leads), 5000, 'leads again')
    expect(await leadsCounted()).toBe(6)
    expect(h.dlq(leads)).toEqual([])
  })

  it('from a time between the records: only what arrived at or after it is read again', async () => {
    await setUp()
    await h.start(leads.name)
    await waitUntil(() => h.caughtUp(leads), 5000, 'leads')
    await h.stopAll()
    const outcome = await replay(at(15))
    expect(outcome.replays[0]?.plan.reduce((n, p) => n + p.reread, 0)).toBe(3)
  })

  it('refused while the group has a member, naming it; nothing moves', async () => {
    await setUp()
    await h.start(leads.name)
    await waitUntil(() => h.caughtUp(leads), 5000, 'leads')
    const before = await committed()
    const outcome = await replay(at(0))
    expect(outcome.kind).toBe('refused')
    if (outcome.kind !== 'refused') return
    expect(outcome.busy.map((r) => [r.consumer.groupId, r.members.map((m) => m.clientId)])).toEqual([[LEAD_CREATED.groupId, ['in-memory']]])
    expect(await committed()).toEqual(before)
  })

  it('a dry run plans (also while members run) and changes nothing', async () => {
    await setUp()
    await h.start(leads.name)
    await waitUntil(() => h.caughtUp(leads), 5000, 'leads')
    const before = await committed()
    const outcome = await replay(at(0), { dryRun: true })
    expect(outcome.kind).toBe('planned')
    expect(outcome.replays[0]?.members).toHaveLength(1)
    expect(outcome.replays[0]?.plan.reduce((n, p) => n + p.reread, 0)).toBe(6)
    expect(await committed()).toEqual(before)
  })

  it('never moves a partition forward past unread records, unless --to-latest; the retry topic is left alone', async () => {
    await setUp()
    h.broker.createTopic(LEAD_CREATED.topics.retry, 3)
    h.broker.log.commit(LEAD_CREATED.groupId, [{ topic: LEAD_CREATED.topics.retry, partition: 0, offset: '7' }])
    const kept = await replay(at(60))
    expect(kept.replays[0]?.plan.every((p) => p.next === 0 && p.reread === 0)).toBe(true)
    const forward = await replay(at(60), { toLatest: true })
    expect(forward.replays[0]?.plan.reduce((n, p) => n + p.reread, 0)).toBe(-6)
    expect(Object.values(await committed()).map(Number).reduce((a, b) => a + b, 0)).toBe(6)
    expect(await committed(LEAD_CREATED.topics.retry)).toEqual({ 0: '7' })
  })

  it('offsets the broker did not take (the adapter read them back) fail the run, naming the partitions', async () => {
    await setUp()
    const silent = {
      ...h.broker.groupAdmin(),
      setOffsets: async (groupId: string, topic: string, offsets: readonly { partition: number }[]) => {
        throw new OffsetsNotApplied(groupId, topic, offsets.map((o) => o.partition))
      },
    }
    await expect(replayConsumers(silent)([LEAD_CREATED], { from: at(0), dryRun: false, toLatest: false })).rejects.toThrow(ReplayNotApplied)
    await expect(replayConsumers(silent)([LEAD_CREATED], { from: at(0), dryRun: false, toLatest: false })).rejects.toThrow(/partition\(s\) 0, 1, 2/)
  })
})
