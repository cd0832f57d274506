import { afterEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { getConversionFunnel } from '../../../src/application/read/get-conversion-funnel.js'
import type { Guid } from '../../../src/domain/guid.js'
import { binaryRecord, guid, leadCreatedPayload, path, propertyObjectUpsertedPayload, type Path } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

// Acceptance criteria of seed 003 (DevStatsFunnelLeadCreatedConsumer), over in-memory adapters.
const leads = leadCreatedHandler()
const dims = propertyObjectUpsertedHandler()
const day = { fromDate: '2026-11-30', toDate: '2026-11-30' }
let h: Harness
let po1: Path

const start = async () => {
  h = new Harness([leads, dims])
  await h.start()
}
const knownObject = async () => {
  po1 = path()
  h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po1)))
  await waitUntil(() => h.caughtUp(dims), 5000, 'dimension')
}
const leadsOf = async (p: Path) => {
  const funnel = getConversionFunnel(h.readModel, () => ({ enabled: true }))
  const report = await funnel({ developerId: p.DeveloperId as Guid }, day, { propertyObjectId: p.PropertyObjectId as Guid })
  return E.isRight(report) ? report.right.find((s) => s.stage === 'Leads')?.count : undefined
}
const lead = (o: Record<string, unknown> = {}) => binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: po1.PropertyObjectId, ...o }))

afterEach(async () => h?.stopAll())

describe('lead-created acceptance (seed 003)', () => {
  it('Happy path: a lead L1 on PO1 on day D raises uniqMerge(Leads) for PO1 × D by 1', async () => {
    await start()
    await knownObject()
    expect(await leadsOf(po1)).toBe(0)
    h.publish(lead())
    await waitUntil(() => h.caughtUp(leads))
    expect(await leadsOf(po1)).toBe(1)
    const row = h.tables.of('funnel_daily')[0]?.fact.row
    expect(row).toMatchObject({ stage: 'Leads', eventDate: '2026-11-30', developerId: po1.DeveloperId, layoutId: po1.LayoutId })
    expect(JSON.stringify(h.tables.of('funnel_daily'))).not.toMatch(/Ivan|\+7 900|ClientId/)
  })

  it('Idempotency: a redelivered L1 leaves Leads unchanged', async () => {
    await start()
    await knownObject()
    const l1 = lead()
    h.publish(l1)
    await waitUntil(() => h.caughtUp(leads))
    h.publish(l1, binaryRecord(leads.topic, leadCreatedPayload({ LeadId: JSON.parse(new TextDecoder().decode(l1.value as Uint8Array)).LeadId, OriginPropertyObjectId: po1.PropertyObjectId })))
    await waitUntil(() => h.caughtUp(leads))
    expect(await leadsOf(po1)).toBe(1)
  })

  it.each([
    ['null', { OriginPropertyObjectId: null }],
    ['absent from the contract', { OriginPropertyObjectId: undefined }],
  ])('Lead without object (%s): skipped with the skip counter, the object funnel unchanged, no DLQ', async (_, o) => {
    await start()
    await knownObject()
    h.publish(lead(o))
    await waitUntil(() => h.caughtUp(leads))
    expect(h.tables.of('funnel_daily')).toHaveLength(0)
    expect(h.dlq(leads)).toHaveLength(0)
    expect(h.engine(leads.name).stats.skipped.get('no-origin-property-object')).toBe(1)
    expect(await h.metric('dev_stats_skipped_total')).toBe(1)
  })

  it('Late-dimension: parked, then counted once the dimension arrives; a persistent miss goes to the DLQ with a dimension-gap alert', async () => {
    await start()
    po1 = path()
    const missing = path()
    h.publish(lead(), binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: missing.PropertyObjectId })))
    await waitUntil(() => h.broker.records(`${leads.groupId}.retry`).length === 2, 5000, 'parked copies')
    expect(await leadsOf(po1)).toBe(0)
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po1)))
    await waitUntil(() => h.caughtUp(dims))
    for (let i = 0; i < 4; i++) {
      h.clock.advance(10_000)
      await h.engine(leads.name).drain()
    }
    await waitUntil(() => h.caughtUp(leads), 5000, 'leads caught up')
    expect(await leadsOf(po1)).toBe(1)
    expect(h.dlq(leads).map((r) => [r.headers['dlq-reason'], r.headers['dlq-source-topic']])).toEqual([['dimension-gap', leads.topic]])
    expect(await h.metric('dev_stats_dimension_gap_total')).toBe(1)
    expect(h.engine(leads.name).stats.recovered).toBe(1)
  })

  it('Store failure: ClickHouse down → offsets not committed, retried with backoff, caught up without duplicates', async () => {
    await start()
    await knownObject()
    h.store.down = true
    const batch = Array.from({ length: 20 }, () => lead())
    h.publish(...batch)
    await waitUntil(() => h.engine(leads.name).stats.sinkRetries >= 3, 5000, 'retries')
    expect(h.caughtUp(leads)).toBe(false)
    expect(h.tables.of('funnel_daily')).toHaveLength(0)
    expect(h.dlq(leads)).toHaveLength(0)
    h.store.down = false
    await waitUntil(() => h.caughtUp(leads))
    expect(await leadsOf(po1)).toBe(20)
  })

  it('Feature flag: Leads has no data source while dev-stats.funnel.enabled is off, and conversion skips it', async () => {
    await start()
    const funnel = getConversionFunnel(h.readModel, (stage) => ({ enabled: stage !== 'Leads' }))
    const report = await funnel({ developerId: guid() as Guid }, day)
    expect(E.isRight(report) && report.right.find((s) => s.stage === 'Leads')?.status).toBe('no-source')
  })
})
