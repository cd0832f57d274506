import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
import type { DimensionLevel } from '../../src/domain/dimension-path.js'
import { envelope, type SoakRecord } from './envelope.js'
import { DIM_TABLE_OF, Hierarchy, type Entity } from './hierarchy.js'
import { EMPTY_ENTRY, type LedgerEntry } from './ledger-entry.js'
import { spoilersOf, type Spoiler, type TopicKind } from './poison.js'
import { Rng } from './random.js'

/** One record to produce and what the end check expects of it. */
export interface Produced {
  readonly record: SoakRecord
  readonly entry: LedgerEntry
}

/** Share of each consumer's topic in the traffic: docs/scale.md's assumed mix. */
export const SHARES: Readonly<Record<string, number>> = {
  ACTION_TRACKED: 45,
  VIEW_ENDED: 25,
  SESSION_ENDED: 15,
  FAVORITES: 4,
  SELECTIONS: 4,
  CRM_BOOKING: 0.2,
  CRM_BOOKING_PAID: 0.2,
  CRM_DEAL: 0.2,
  CRM_DEAL_COMPLETED: 0.2,
  LEAD_CREATED: 0.2,
  DEVELOPER_UPSERTED: 1,
  PROJECT_UPSERTED: 1,
  BUILDING_UPSERTED: 1,
  LAYOUT_GROUP_UPSERTED: 1,
  LAYOUT_UPSERTED: 1,
  PROPERTY_OBJECT_UPSERTED: 1,
}

const FUNNEL: Readonly<Record<string, { stage: string; keyField: string }>> = {
  FAVORITES: { stage: 'Favorites', keyField: 'FavoriteId' },
  SELECTIONS: { stage: 'Selections', keyField: 'SelectionItemId' },
  CRM_BOOKING: { stage: 'Bookings', keyField: 'BookingId' },
  CRM_BOOKING_PAID: { stage: 'BookingsPaid', keyField: 'BookingId' },
  CRM_DEAL: { stage: 'Deals', keyField: 'DealId' },
  CRM_DEAL_COMPLETED: { stage: 'DealsCompleted', keyField: 'DealId' },
}

const UPPER: Readonly<Record<string, DimensionLevel>> = {
  DEVELOPER_UPSERTED: 'developer',
  PROJECT_UPSERTED: 'project',
  BUILDING_UPSERTED: 'building',
  LAYOUT_GROUP_UPSERTED: 'layout-group',
  LAYOUT_UPSERTED: 'layout',
}

export interface TrafficSettings {
  readonly seed: number
  /** Share of records spoiled (poison of every reason, spread evenly over the reasons of each topic). */
  readonly poison: number
  /** Share of dimension-bound records naming a property object whose upsert comes 1–5 s later. */
  readonly late: number
  /** Share of dimension-bound records naming a property object that never comes (dimension-gap). */
  readonly gap: number
  /** Share of records delivered a second time, up to a few thousand records later. */
  readonly repeat: number
  /** Share sent in structured content mode. */
  readonly structured: number
}

export const DEFAULT_TRAFFIC: Omit<TrafficSettings, 'seed'> = { poison: 0.005, late: 0.004, gap: 0.001, repeat: 0.01, structured: 0.2 }

const DAY_MS = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()
const dateOf = (ms: number) => iso(ms).slice(0, 10)

/**
 * The seeded traffic model: what to produce next and what it must come to. Deterministic for a
 * seed and a sequence of `now`s; it never looks at the clock itself.
 */
export class TrafficModel {
  private readonly rng: Rng
  private readonly tree: Hierarchy
  private readonly keys: readonly string[]
  private readonly weights: readonly number[]
  private readonly topicOf: ReadonlyMap<string, string>
  private readonly recent: Produced[] = []
  private readonly pending: { dueAt: number; po: Entity }[] = []
  private seq = 0

  constructor(private readonly settings: TrafficSettings) {
    this.rng = new Rng(settings.seed).fork('traffic')
    this.tree = new Hierarchy(this.rng.fork('hierarchy'))
    this.topicOf = new Map(CONSUMERS.map((c) => [c.key, c.topic]))
    this.keys = CONSUMERS.map((c) => c.key).filter((k) => SHARES[k] !== undefined)
    this.weights = this.keys.map((k) => SHARES[k] as number)
    if (this.keys.length !== CONSUMERS.length) throw new Error('every registered consumer needs a share in the soak traffic')
  }

  /** Property objects (and their upper levels) produced up front so that facts have something to name. */
  bootstrap(now: number, objects: number): Produced[] {
    return Array.from({ length: objects }, () => this.dimension('PROPERTY_OBJECT_UPSERTED', now, this.tree.create('property-object'), undefined))
  }

  /** The next `count` records (a repeat counts as one). */
  next(now: number, count: number): Produced[] {
    const out: Produced[] = []
    for (let i = 0; i < count; i++) {
      if (this.recent.length > 100 && this.rng.chance(this.settings.repeat)) {
        const original = this.rng.pick(this.recent)
        out.push({ record: original.record, entry: { ...original.entry, Copy: 1 } })
        continue
      }
      const key = this.keys[this.rng.weighted(this.weights)] as string
      const p = this.one(key, now)
      out.push(p)
      if (this.recent.length < 5000) this.recent.push(p)
      else this.recent[this.rng.int(0, this.recent.length - 1)] = p
    }
    return out
  }

  /** The late property objects' upserts that fall due at `now` (all of them with Infinity). */
  due(now: number): Produced[] {
    const due = this.pending.filter((p) => p.dueAt <= now)
    if (due.length === 0) return []
    this.pending.splice(0, this.pending.length, ...this.pending.filter((p) => p.dueAt > now))
    return due.map(({ po, dueAt }) => {
      this.tree.add(po)
      return this.dimension('PROPERTY_OBJECT_UPSERTED', Math.min(now, dueAt), po, undefined)
    })
  }

  get produced(): number {
    return this.seq
  }

  private one(key: string, now: number): Produced {
    if (key === 'PROPERTY_OBJECT_UPSERTED' || UPPER[key]) {
      const level = UPPER[key] ?? 'property-object'
      const spoiler = this.spoiler(level === 'property-object' ? 'po-dim' : 'upper-dim', now)
      // A spoiled first upsert of a property object would make its facts gaps: spoil a throwaway one.
      if (spoiler && level === 'property-object') return this.dimension(key, now, this.tree.create(level, false), spoiler)
      const pool = this.tree.all(level)
      const entity = pool.length < 20 || this.rng.chance(0.3) ? this.tree.create(level) : this.rng.pick(pool)
      return this.dimension(key, now, entity, spoiler)
    }
    if (key === 'SESSION_ENDED') return this.session(now)
    return this.dimensionBound(key, now)
  }

  private nextSeq(): number {
    return ++this.seq
  }

  private spoiler(kind: TopicKind, now: number, keyField = ''): Spoiler | undefined {
    return this.rng.chance(this.settings.poison) ? this.rng.pick(spoilersOf(kind, now, keyField)) : undefined
  }

  /** Envelope + ledger entry; a spoiler turns the expectation into its poison. */
  private emit(key: string, payload: Record<string, unknown>, recordKey: string | null, expected: Partial<LedgerEntry>, spoiler?: Spoiler): Produced {
    const seq = this.nextSeq()
    const messageId = this.rng.uuid()
    const record = envelope(this.topicOf.get(key) as string, spoiler?.payload ? spoiler.payload(payload) : payload, {
      seq,
      messageId: spoiler?.noId ? null : messageId,
      structured: this.rng.chance(this.settings.structured),
      contractVersion: this.rng.chance(0.01) ? '2' : '1',
      key: recordKey,
      ...(spoiler?.raw === undefined ? {} : { rawValue: spoiler.raw }),
    })
    const entry: LedgerEntry = spoiler
      ? { ...EMPTY_ENTRY, Seq: seq, Consumer: key, Outcome: 'poison', Reason: spoiler.reason, MessageId: spoiler.noId ? '' : messageId }
      : { ...EMPTY_ENTRY, Outcome: 'row', ...expected, Seq: seq, Consumer: key, MessageId: messageId }
    // The fact's identity is its message id: filled in here, where the id is drawn.
    const withId = entry.FactKey ? { ...entry, FactKey: `${messageId}/${entry.FactKey}` } : entry
    return { record, entry: withId }
  }

  private dimension(key: string, now: number, e: Entity, spoiler: Spoiler | undefined): Produced {
    const atMs = this.tree.nextVersionMs(e, now)
    const name = `${e.level} ${e.id.slice(0, 8)} v${e.versions}`
    const payload = { Id: e.id, ...e.parents, UpsertedAt: iso(atMs), Name: name }
    return this.emit(key, payload, e.id, { DimTable: DIM_TABLE_OF[e.level], DimId: e.id, Version: atMs * 1000, Name: name }, spoiler)
  }

  private session(now: number): Produced {
    const sessionId = this.rng.uuid()
    const created = now - this.rng.int(60_000, DAY_MS)
    const duration = this.rng.int(0, 7200)
    const payload = {
      SessionId: sessionId,
      AnonymousId: this.rng.uuid(),
      UserId: this.rng.chance(0.5) ? this.rng.uuid() : null,
      CreatedAt: iso(created),
      LastActivityAt: iso(created + duration * 1000),
      DurationSeconds: duration,
    }
    return this.emit('SESSION_ENDED', payload, sessionId, { FactTable: 'session_facts', FactKey: sessionId }, this.spoiler('session', now))
  }

  /** A record enriched by dim_property_object: a known object, a late one, or a ghost. */
  private dimensionBound(key: string, now: number): Produced {
    const known = this.tree.all('property-object')
    let po: Entity
    let late = 0
    let ghost = false
    const draw = this.rng.next()
    if (draw < this.settings.gap) {
      po = this.tree.create('property-object', false)
      ghost = true
    } else if (draw < this.settings.gap + this.settings.late || known.length === 0) {
      po = this.tree.create('property-object', false)
      this.pending.push({ dueAt: now + this.rng.int(1000, 5000), po })
      late = 1
    } else {
      po = this.rng.pick(known)
    }
    const at = now - this.rng.int(0, 2 * DAY_MS)
    const path = { PropertyObjectId: po.id, DeveloperId: po.parents['DeveloperId'] as string, EventDate: dateOf(at), Late: late }
    const made = this.bound(key, now, at, po, path)
    if (!ghost || made.entry.Outcome !== 'row') return made
    return { record: made.record, entry: { ...made.entry, Outcome: 'gap', Reason: 'dimension-gap', FactTable: '', FactKey: '', Stage: '' } }
  }

  private bound(key: string, now: number, at: number, po: Entity, path: Partial<LedgerEntry>): Produced {
    const funnel = FUNNEL[key]
    if (funnel) {
      const businessKey = this.rng.uuid()
      const payload = { [funnel.keyField]: businessKey, PropertyObjectId: po.id, OccurredAt: iso(at) }
      return this.emit(key, payload, businessKey, { ...path, Stage: funnel.stage, BusinessKey: businessKey }, this.spoiler('funnel', now, funnel.keyField))
    }
    if (key === 'LEAD_CREATED') {
      const leadId = this.rng.uuid()
      const origin = this.rng.chance(0.1) ? null : po.id
      const payload = {
        LeadId: leadId, OriginPropertyObjectId: origin, CreatedAt: iso(at), TenantId: this.rng.uuid(), ClientId: this.rng.uuid(), ClientName: 'Soak Client', Phone: '+7 900 000-00-00',
      }
      if (origin === null) return this.emit(key, payload, leadId, { Outcome: 'skip' }, this.spoiler('lead', now))
      return this.emit(key, payload, leadId, { ...path, Stage: 'Leads', BusinessKey: leadId }, this.spoiler('lead', now))
    }
    const viewId = this.rng.uuid()
    const sessionId = this.rng.uuid()
    // Now and then a source the service does not know: stored as Unknown with a warning.
    const viewSource = this.rng.chance(0.002) ? 'Newsletter' : this.rng.pick(['Catalog', 'Search', 'Map', 'Chessboard', 'Favorites', 'Selection', 'DirectLink', 'Recommendation'])
    if (key === 'ACTION_TRACKED') {
      // Not a view: skipped. Spoiled only as a whole (a bad field of a non-view action is never read).
      if (this.rng.chance(0.05)) {
        const spoiler = this.spoiler('action', now)
        return this.emit(key, { ActionType: 'Search', Query: 'flats' }, sessionId, { Outcome: 'skip' }, spoiler?.payload ? undefined : spoiler)
      }
      const payload = { ActionType: 'ViewPropertyObject', PropertyObjectViewId: viewId, PropertyObjectId: po.id, SessionId: sessionId, AnonymousId: this.rng.uuid(), ViewSource: viewSource, ViewedAt: iso(at) }
      const fact = { FactTable: 'property_object_view_facts', FactKey: `${path.DeveloperId}/0`, Stage: 'Views', BusinessKey: viewId }
      return this.emit(key, payload, sessionId, { ...path, ...fact }, this.spoiler('action', now))
    }
    const duration = this.rng.int(1, 900)
    const payload = {
      PropertyObjectViewId: viewId, PropertyObjectId: po.id, SessionId: sessionId, AnonymousId: this.rng.uuid(), UserId: this.rng.chance(0.5) ? this.rng.uuid() : null,
      ViewSource: viewSource, ViewedAt: iso(at), LastActivityAt: iso(at + duration * 1000), DurationSeconds: duration,
    }
    return this.emit(key, payload, sessionId, { ...path, FactTable: 'property_object_view_facts', FactKey: `${path.DeveloperId}/1` }, this.spoiler('view-ended', now))
  }
}
