import { randomUUID } from 'node:crypto'
import type { OutboundRecord } from '../application/ports/broker.port.js'

/** A generated, realistic stream for the demo: what the platform's producers would publish in a day. */
const enc = new TextEncoder()
/** The demo's events span the last four minutes: fresh, within the 5-minute SLA, none in the future. */
export const START = Date.now() - 4 * 60_000

export interface DemoObject {
  readonly developerId: string
  readonly path: Record<string, string>
}

const record = (topic: string, payload: unknown, key: string, id: string = randomUUID(), extra: Record<string, string> = {}): OutboundRecord => ({
  topic,
  key: enc.encode(key),
  value: enc.encode(typeof payload === 'string' ? payload : JSON.stringify(payload)),
  headers: { ce_id: id, ce_specversion: '1.0', ce_source: 'demo', ce_contractversion: '1', ...extra },
})

const at = (tick: number) => new Date(START + tick * 500).toISOString()

export const developers = ['Северный квартал', 'Речной парк', 'Солнечный берег'].map((name) => ({ name, id: randomUUID() }))

export const objects: DemoObject[] = developers.flatMap((d) =>
  Array.from({ length: 8 }, () => {
    const path = { DeveloperId: d.id, ProjectId: randomUUID(), BuildingId: randomUUID(), LayoutGroupId: randomUUID(), LayoutId: randomUUID(), Id: randomUUID() }
    return { developerId: d.id, path }
  }),
)

export const dimension = (o: DemoObject): OutboundRecord =>
  record('pin.chessboard.property-object-upserted.v1', { ...o.path, UpsertedAt: at(0), Name: 'Квартира' }, o.path.Id as string)

const LAYOUTS = ['Студия', '1-комнатная', '2-комнатная', '3-комнатная']

/**
 * The five upper dimensions (developer, project, building, layout group, layout) that give the
 * read side its names; one developer is renamed later (a newer UpsertedAt wins) and one upsert is
 * poison (Guid.Empty Id).
 */
export const upperDimensions = (): OutboundRecord[] => {
  const up = (level: string, payload: Record<string, unknown>, tick = 0) =>
    record(`pin.chessboard.${level}-upserted.v1`, { UpsertedAt: at(tick), ...payload }, payload.Id as string)
  const out = developers.map((d) => up('developer', { Id: d.id, Name: `${d.name} (старое название)` }))
  objects.forEach((o, i) => {
    const { DeveloperId, ProjectId, BuildingId, LayoutGroupId, LayoutId } = o.path
    out.push(
      up('project', { Id: ProjectId, DeveloperId, Name: `ЖК «${['Липы', 'Клёны', 'Сосны'][i % 3]}»` }),
      up('building', { Id: BuildingId, DeveloperId, ProjectId, Name: `Корпус ${1 + (i % 4)}` }),
      up('layout-group', { Id: LayoutGroupId, DeveloperId, ProjectId, BuildingId, Name: `Секция ${1 + (i % 2)}` }),
      up('layout', { Id: LayoutId, DeveloperId, ProjectId, BuildingId, LayoutGroupId, Name: pick(LAYOUTS, i) }),
    )
  })
  out.push(...developers.map((d) => up('developer', { Id: d.id, Name: d.name }, 1))) // the rename: a newer version
  out.push(up('project', { Id: '00000000-0000-0000-0000-000000000000', DeveloperId: developers[0]?.id, Name: 'poison' }))
  return out
}

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T

/** Sessions, their views, funnel events, redeliveries and every kind of poison. */
export const stream = (lateObject: DemoObject): OutboundRecord[] => {
  const out: OutboundRecord[] = []
  for (let i = 0; i < 600; i++) {
    const sessionId = randomUUID()
    const guest = i % 3 === 0
    const duration = 60 + ((i * 37) % 1740)
    const session = record('pin.user-activity.session-ended.v1', {
      SessionId: sessionId, AnonymousId: randomUUID(), UserId: guest ? null : randomUUID(),
      CreatedAt: at(i % 480), LastActivityAt: at(i % 480), DurationSeconds: duration,
    }, sessionId)
    out.push(session)
    if (i % 10 === 0) out.push(session) // at-least-once: a redelivery
    const o = pick(objects, i * 7)
    const viewId = randomUUID()
    const action = { PropertyObjectViewId: viewId, PropertyObjectId: o.path.Id, SessionId: sessionId, ViewedAt: at(i % 480) }
    out.push(record('pin.user-activity.action-tracked.v1', { ActionType: 'ViewPropertyObject', ...action }, sessionId))
    if (i % 7 === 0) out.push(record('pin.user-activity.action-tracked.v1', { ActionType: 'ShareLink', ...action }, sessionId))
    out.push(record('pin.user-activity.property-object-view-ended.v1', {
      PropertyObjectViewId: viewId, PropertyObjectId: o.path.Id, SessionId: sessionId, AnonymousId: randomUUID(),
      UserId: guest ? null : randomUUID(), ViewSource: i % 50 === 0 ? 'Hologram' : 'Catalog',
      ViewedAt: at(i % 480), LastActivityAt: at(i % 480), DurationSeconds: 30,
    }, sessionId))
    const funnel: [string, string, number][] = [
      ['pin.favorites.favorite-added.v1', 'FavoriteId', 2], ['pin.selections.selection-item-added.v1', 'SelectionItemId', 3],
      ['pin.crm.booking-created.v1', 'BookingId', 8], ['pin.crm.booking-paid.v1', 'BookingId', 12],
      ['pin.crm.deal-created.v1', 'DealId', 15], ['pin.crm.deal-completed.v1', 'DealId', 25],
    ]
    for (const [topic, keyField, every] of funnel) {
      if (i % every === 0) out.push(record(topic, { [keyField]: randomUUID(), PropertyObjectId: o.path.Id, OccurredAt: at(i % 480) }, o.path.Id as string))
    }
    if (i % 5 === 0) {
      const origin = i % 20 === 0 ? null : i === 25 ? lateObject.path.Id : o.path.Id
      out.push(record('pin.crm.lead-created.v1', { LeadId: randomUUID(), OriginPropertyObjectId: origin, CreatedAt: at(i % 480), ClientName: 'скрыто' }, o.path.Id as string))
    }
  }
  const s = 'pin.user-activity.session-ended.v1'
  const valid = { SessionId: randomUUID(), AnonymousId: randomUUID(), CreatedAt: at(1), LastActivityAt: at(2), DurationSeconds: 60 }
  out.push(
    record(s, '{"SessionId": "truncated', 'p1'),
    record(s, valid, 'p2', ''),
    record(s, { ...valid, SessionId: '00000000-0000-0000-0000-000000000000' }, 'p3'),
    record(s, { ...valid, DurationSeconds: -15 }, 'p4'),
    record(s, { ...valid, CreatedAt: '0001-01-01T00:00:00+00:00' }, 'p5'),
    record(s, { ...valid, CreatedAt: '2030-01-01T00:00:00Z' }, 'p6'),
    record(s, { ...valid, SessionId: randomUUID() }, 'p7', randomUUID(), { ce_contractversion: '2' }),
  )
  return out
}
