import { afterEach, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { actionTrackedHandler } from '../../../src/application/handlers/action-tracked.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { viewEndedHandler } from '../../../src/application/handlers/view-ended.handler.js'
import { getConversionFunnel } from '../../../src/application/read/get-conversion-funnel.js'
import type { Guid } from '../../../src/domain/guid.js'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload, viewEndedPayload } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

const actions = actionTrackedHandler()
const ended = viewEndedHandler()
const dims = propertyObjectUpsertedHandler()
let h: Harness
afterEach(async () => h?.stopAll())

const action = (o: Record<string, unknown>) => ({ ActionType: 'ViewPropertyObject', ViewedAt: '2026-11-30T10:00:00Z', SessionId: guid(), ...o })

describe('views: action-tracked (open) and property-object-view-ended (closed)', () => {
  it('an open and a closed fact of one view, a repeated view counted once in Views, other actions skipped, unknown ViewSource kept as Unknown', async () => {
    h = new Harness([actions, ended, dims])
    await h.start()
    const p = path()
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(p)))
    await waitUntil(() => h.caughtUp(dims))
    const viewId = guid()
    const open = binaryRecord(actions.topic, action({ PropertyObjectViewId: viewId, PropertyObjectId: p.PropertyObjectId, ViewSource: 'Hologram' }))
    h.publish(
      open,
      binaryRecord(actions.topic, action({ PropertyObjectViewId: viewId, PropertyObjectId: p.PropertyObjectId })), // another message, same view
      binaryRecord(actions.topic, action({ ActionType: 'ShareLink', PropertyObjectViewId: guid(), PropertyObjectId: p.PropertyObjectId })),
      binaryRecord(ended.topic, viewEndedPayload(p, guid(), { PropertyObjectViewId: viewId, UserId: guid(), ViewerRole: 'Investor' })),
    )
    await waitUntil(() => h.caughtUp(actions) && h.caughtUp(ended))
    const facts = h.tables.of('property_object_view_facts').map((r) => r.fact.row)
    expect(facts.filter((f) => f.propertyObjectViewId === viewId).map((f) => f.isClosed).sort()).toEqual([false, false, true])
    expect(facts.find((f) => f.factId === open.headers['ce_id'])).toMatchObject({ viewSource: 'Unknown', viewSourceRaw: 'Hologram', developerId: p.DeveloperId, durationSeconds: null })
    expect(facts.find((f) => f.isClosed)?.viewerKind).toBe('Investor')
    expect(h.logger.at('warn').some((l) => l.message.startsWith('ViewSource not among'))).toBe(true)
    expect(h.logger.lines.some((l) => `${l.message} ${JSON.stringify(l.fields)}`.includes('Hologram'))).toBe(false) // the producer's text stays in the row
    expect(h.engine(actions.name).stats.skipped.get('not-a-view-action')).toBe(1)
    const funnel = await getConversionFunnel(h.readModel, () => ({ enabled: true }))({ developerId: p.DeveloperId as Guid }, { fromDate: '2026-11-30', toDate: '2026-11-30' })
    expect(E.isRight(funnel) && funnel.right[0]).toMatchObject({ stage: 'Views', count: 1 })
  })

  it('configured view sources (DEV_STATS_VIEW_SOURCES): a listed value is known, with its raw value beside it', async () => {
    const configured = { viewSources: ['Catalog', 'Hologram'] }
    const [a, e] = [actionTrackedHandler(undefined, undefined, configured), viewEndedHandler(undefined, undefined, configured)]
    h = new Harness([a, e, dims])
    await h.start()
    const p = path()
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(p)))
    await waitUntil(() => h.caughtUp(dims))
    h.publish(
      binaryRecord(a.topic, action({ PropertyObjectViewId: guid(), PropertyObjectId: p.PropertyObjectId, ViewSource: 'Hologram' })),
      binaryRecord(e.topic, viewEndedPayload(p, guid(), { ViewSource: 'Search' })),
    )
    await waitUntil(() => h.caughtUp(a) && h.caughtUp(e))
    const sources = h.tables.of('property_object_view_facts').map((r) => [r.fact.row.isClosed, r.fact.row.viewSource, r.fact.row.viewSourceRaw])
    expect(sources.sort()).toEqual([[false, 'Hologram', 'Hologram'], [true, 'Unknown', 'Search']])
    expect(h.logger.at('warn').filter((l) => l.message.includes('ViewSource')).map((l) => l.message)).toEqual([
      'ViewSource not among DEV_STATS_VIEW_SOURCES: stored as Unknown (the raw value kept in ViewSourceRaw)',
    ])
  })

  it.each([
    ['no ActionType', { ActionType: undefined }, 'undecodable'],
    ['view without PropertyObjectViewId', { PropertyObjectViewId: undefined }, 'undecodable'],
    ['view in the future', { ViewedAt: '2027-01-01T00:00:00Z' }, 'created-at-in-future'],
    ['Guid.Empty object', { PropertyObjectId: '00000000-0000-0000-0000-000000000000' }, 'empty-id'],
  ])('poison: %s → %s', async (_, o, reason) => {
    h = new Harness([actions])
    await h.start()
    h.publish(binaryRecord(actions.topic, action({ PropertyObjectViewId: guid(), PropertyObjectId: guid(), ...o })))
    await waitUntil(() => h.caughtUp(actions))
    expect(h.dlq(actions).map((r) => r.headers['dlq-reason'])).toEqual([reason])
  })
})
