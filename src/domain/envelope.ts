import * as E from 'fp-ts/lib/Either.js'
import { poison, type Poison } from './poison.js'

/** What a broker record contributes to decoding: the value bytes and the headers. */
export interface RawEvent {
  readonly value: Uint8Array | null
  readonly headers: Readonly<Record<string, string>>
}

/** CloudEvents attributes of one event (spec §3) plus its still undecoded payload. */
export interface EventContext {
  readonly messageId: string
  readonly type?: string
  readonly source?: string
  readonly time?: string
  readonly subject?: string
  readonly aggregateType?: string
  readonly aggregateVersion?: string
  readonly contractVersion?: string
  readonly traceparent?: string
  readonly tracestate?: string
}

export interface DecodedEnvelope {
  readonly context: EventContext
  readonly payload: unknown
}

const STRUCTURED_CONTENT_TYPE = 'application/cloudevents+json'
const utf8 = new TextDecoder('utf-8', { fatal: true })

const parseJson = (value: Uint8Array | null): E.Either<Poison, unknown> => {
  if (value === null || value.length === 0) return E.left(poison('undecodable', 'record has no value'))
  try {
    return E.right(JSON.parse(utf8.decode(value)))
  } catch (e) {
    return E.left(poison('undecodable', `value is not UTF-8 JSON: ${(e as Error).message}`))
  }
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : undefined

const contextFrom = (get: (name: string) => unknown): E.Either<Poison, EventContext> => {
  const messageId = text(get('id'))?.trim()
  if (!messageId) return E.left(poison('missing-message-id', 'event has no message id (ce_id)'))
  const context: Record<string, string> = { messageId }
  for (const [field, attribute] of ATTRIBUTES) {
    const value = text(get(attribute))
    if (value !== undefined) context[field] = value
  }
  return E.right(context as unknown as EventContext)
}

/** EventContext field ← CloudEvents attribute name. */
const ATTRIBUTES: readonly (readonly [keyof EventContext, string])[] = [
  ['type', 'type'],
  ['source', 'source'],
  ['time', 'time'],
  ['subject', 'subject'],
  ['aggregateType', 'aggregatetype'],
  ['aggregateVersion', 'aggregateversion'],
  ['contractVersion', 'contractversion'],
  ['traceparent', 'traceparent'],
  ['tracestate', 'tracestate'],
]

/** Kafka header names are case-sensitive; CloudEvents' are lower case. Copies only when needed. */
const lowerCaseKeys = (headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> => {
  for (const k in headers) {
    if (k !== k.toLowerCase()) return Object.fromEntries(Object.entries(headers).map(([key, v]) => [key.toLowerCase(), v]))
  }
  return headers
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * Decodes the CloudEvents Kafka binding: binary mode (attributes in `ce_*` headers, payload in
 * the value) or structured mode (content-type application/cloudevents+json, payload under `data`).
 */
export const decodeEnvelope = (raw: RawEvent): E.Either<Poison, DecodedEnvelope> => {
  const headers = lowerCaseKeys(raw.headers)
  const structured = (headers['content-type'] ?? '').toLowerCase().startsWith(STRUCTURED_CONTENT_TYPE)
  return structured ? decodeStructured(raw.value) : decodeBinary(headers, raw.value)
}

const decodeBinary = (headers: Readonly<Record<string, string>>, value: Uint8Array | null): E.Either<Poison, DecodedEnvelope> =>
  E.flatMap(parseJson(value), (payload) =>
    E.map((context: EventContext): DecodedEnvelope => ({ context, payload }))(
      contextFrom((name) => headers[`ce_${name}`] ?? (name.startsWith('trace') ? headers[name] : undefined)),
    ),
  )

const decodeStructured = (value: Uint8Array | null): E.Either<Poison, DecodedEnvelope> =>
  E.flatMap(parseJson(value), (body) => {
    if (!isRecord(body)) return E.left(poison('undecodable', 'structured CloudEvent is not a JSON object'))
    return E.map((context: EventContext): DecodedEnvelope => ({ context, payload: body['data'] }))(
      contextFrom((name) => body[name]),
    )
  })
