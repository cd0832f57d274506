import { randomUUID } from 'node:crypto'
import type { OutboundRecord } from '../../src/application/ports/broker.port.js'

/** Test-data builders ("mothers") for the wire format of spec §3. */
const encoder = new TextEncoder()

export const guid = (): string => randomUUID()
export const EMPTY = '00000000-0000-0000-0000-000000000000'

export const sessionEndedPayload = (o: Record<string, unknown> = {}): Record<string, unknown> => ({
  SessionId: guid(),
  AnonymousId: guid(),
  UserId: guid(),
  CreatedAt: '2026-11-30T10:15:30.1234567+03:00',
  LastActivityAt: '2026-11-30T10:45:30.1234567+03:00',
  DurationSeconds: 1800,
  ...o,
})

export const leadCreatedPayload = (o: Record<string, unknown> = {}): Record<string, unknown> => ({
  LeadId: guid(),
  OriginPropertyObjectId: guid(),
  CreatedAt: '2026-11-30T09:00:00+00:00',
  TenantId: guid(),
  ClientId: guid(),
  ClientName: 'Ivan Petrov',
  Phone: '+7 900 000-00-00',
  ...o,
})

export interface Path {
  DeveloperId: string
  ProjectId: string
  BuildingId: string
  LayoutGroupId: string
  LayoutId: string
  PropertyObjectId: string
}

export const path = (developerId = guid()): Path => ({
  DeveloperId: developerId,
  ProjectId: guid(),
  BuildingId: guid(),
  LayoutGroupId: guid(),
  LayoutId: guid(),
  PropertyObjectId: guid(),
})

export const propertyObjectUpsertedPayload = (p: Path, o: Record<string, unknown> = {}): Record<string, unknown> => ({
  Id: p.PropertyObjectId,
  DeveloperId: p.DeveloperId,
  ProjectId: p.ProjectId,
  BuildingId: p.BuildingId,
  LayoutGroupId: p.LayoutGroupId,
  LayoutId: p.LayoutId,
  UpsertedAt: '2026-11-01T00:00:00Z',
  Name: 'Flat 12',
  ...o,
})

export const viewEndedPayload = (p: Path, sessionId: string, o: Record<string, unknown> = {}): Record<string, unknown> => ({
  PropertyObjectViewId: guid(),
  PropertyObjectId: p.PropertyObjectId,
  SessionId: sessionId,
  AnonymousId: guid(),
  UserId: null,
  ViewSource: 'Catalog',
  ViewedAt: '2026-11-30T10:20:00+03:00',
  LastActivityAt: '2026-11-30T10:22:00+03:00',
  DurationSeconds: 120,
  ...o,
})

export const funnelEventPayload = (keyField: string, propertyObjectId: string, o: Record<string, unknown> = {}): Record<string, unknown> => ({
  [keyField]: guid(),
  PropertyObjectId: propertyObjectId,
  OccurredAt: '2026-11-30T09:30:00+00:00',
  ...o,
})

export const viewActionPayload = (p: Path, o: Record<string, unknown> = {}): Record<string, unknown> => ({
  ActionType: 'ViewPropertyObject',
  PropertyObjectViewId: guid(),
  PropertyObjectId: p.PropertyObjectId,
  SessionId: guid(),
  AnonymousId: guid(),
  ViewedAt: '2026-11-30T10:00:00Z',
  ...o,
})

export interface RecordOptions {
  readonly messageId?: string | null
  readonly key?: string
  readonly headers?: Record<string, string>
  /** null: the producer sends no ce_contractversion header. */
  readonly contractVersion?: string | null
  /** Structured mode: further CloudEvents attributes of the event (e.g. traceparent). */
  readonly attributes?: Record<string, string>
}

/** Binary content mode: attributes in ce_* headers, the payload as the value. */
export const binaryRecord = (topic: string, payload: unknown, o: RecordOptions = {}): OutboundRecord => {
  const messageId = o.messageId === undefined ? guid() : o.messageId
  const headers: Record<string, string> = {
    ce_specversion: '1.0',
    ce_type: 'event',
    ce_source: 'test',
    ce_time: '2026-11-30T09:00:00Z',
    ...(o.contractVersion === null ? {} : { ce_contractversion: o.contractVersion ?? '1' }),
    ...(messageId === null ? {} : { ce_id: messageId }),
    ...o.headers,
  }
  const value = typeof payload === 'string' ? encoder.encode(payload) : encoder.encode(JSON.stringify(payload))
  return { topic, key: o.key ? encoder.encode(o.key) : null, value, headers }
}

/** Structured content mode: one JSON CloudEvent with the payload under `data`. */
export const structuredRecord = (topic: string, payload: unknown, o: RecordOptions = {}): OutboundRecord => {
  const event = {
    specversion: '1.0',
    id: o.messageId === undefined ? guid() : o.messageId,
    type: 'event',
    source: 'test',
    ...(o.contractVersion === null ? {} : { contractversion: o.contractVersion ?? '1' }),
    ...o.attributes,
    data: payload,
  }
  return {
    topic,
    key: o.key ? encoder.encode(o.key) : null,
    value: encoder.encode(JSON.stringify(event)),
    headers: { 'content-type': 'application/cloudevents+json; charset=utf-8', ...o.headers },
  }
}

export const messageIdOf = (r: OutboundRecord): string => r.headers['ce_id'] as string
