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
  if (value === null || value.length === 0) return E.left(noValue())
  try {
    return E.right(JSON.parse(utf8.decode(value)))
  } catch (e) {
    return E.left(notJson(e))
  }
}

const noValue = (): Poison => poison('undecodable', 'record has no value')
// The parser's message quotes the input (a person's name, say: spec §9): only its kind is kept.
const notJson = (e: unknown): Poison => poison('undecodable', `value is not UTF-8 JSON (${e instanceof SyntaxError ? 'a syntax error' : 'not UTF-8 text'})`)

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : undefined

/** EventContext field ← CloudEvents attribute name (structured mode; binary mode reads `ce_<name>`). */
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

const missingId = <A>(): E.Either<Poison, A> => E.left(poison('missing-message-id', 'event has no message id (ce_id)'))

/**
 * Binary mode: each attribute from its `ce_` header, unrolled (one named read each) as it runs for
 * every record; undefined without a message id. W3C trace context may come as its own header
 * (`traceparent`) instead of `ce_traceparent`.
 */
const contextFromHeaders = (headers: Readonly<Record<string, string>>): EventContext | undefined => {
  const messageId = text(headers['ce_id'])?.trim()
  if (!messageId) return undefined
  const context: { -readonly [K in keyof EventContext]: EventContext[K] } = { messageId }
  const type = text(headers['ce_type'])
  if (type !== undefined) context.type = type
  const source = text(headers['ce_source'])
  if (source !== undefined) context.source = source
  const time = text(headers['ce_time'])
  if (time !== undefined) context.time = time
  const subject = text(headers['ce_subject'])
  if (subject !== undefined) context.subject = subject
  const aggregateType = text(headers['ce_aggregatetype'])
  if (aggregateType !== undefined) context.aggregateType = aggregateType
  const aggregateVersion = text(headers['ce_aggregateversion'])
  if (aggregateVersion !== undefined) context.aggregateVersion = aggregateVersion
  const contractVersion = text(headers['ce_contractversion'])
  if (contractVersion !== undefined) context.contractVersion = contractVersion
  const traceparent = text(headers['ce_traceparent'] ?? headers['traceparent'])
  if (traceparent !== undefined) context.traceparent = traceparent
  const tracestate = text(headers['ce_tracestate'] ?? headers['tracestate'])
  if (tracestate !== undefined) context.tracestate = tracestate
  return context
}

/**
 * Structured mode: the attributes from the body. W3C trace context is the body's (the CloudEvents
 * distributed-tracing extension) when it has one, else the record's `traceparent`/`tracestate`
 * headers, where OpenTelemetry's Kafka instrumentations put it whatever the mode.
 */
const contextFromBody = (body: Readonly<Record<string, unknown>>, headers: Readonly<Record<string, string>>): E.Either<Poison, EventContext> => {
  const messageId = text(body['id'])?.trim()
  if (!messageId) return missingId()
  const context: Record<string, string> = { messageId }
  for (const [field, attribute] of ATTRIBUTES) {
    const value = text(body[attribute])
    if (value !== undefined) context[field] = value
  }
  if (context['traceparent'] === undefined) {
    const traceparent = text(headers['traceparent'])
    if (traceparent !== undefined) {
      context['traceparent'] = traceparent
      const tracestate = text(headers['tracestate'])
      if (tracestate !== undefined) context['tracestate'] = tracestate
    }
  }
  return E.right(context as unknown as EventContext)
}

/** Kafka header names are case-sensitive; CloudEvents' are lower case. Copies only when needed. */
const lowerCaseKeys = (headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> => {
  for (const k in headers) {
    if (hasUpperCase(k)) return Object.fromEntries(Object.entries(headers).map(([key, v]) => [key.toLowerCase(), v]))
  }
  return headers
}

/** Whether `k` changes under toLowerCase(); ASCII without A-Z does not. */
const hasUpperCase = (k: string): boolean => {
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i)
    if ((c >= 65 && c <= 90) || c > 127) return k !== k.toLowerCase()
  }
  return false
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/**
 * Decodes the CloudEvents Kafka binding: binary mode (attributes in `ce_*` headers, payload in
 * the value) or structured mode (content-type application/cloudevents+json, payload under `data`).
 */
export const decodeEnvelope = (raw: RawEvent): E.Either<Poison, DecodedEnvelope> => {
  const headers = lowerCaseKeys(raw.headers)
  const structured = (headers['content-type'] ?? '').toLowerCase().startsWith(STRUCTURED_CONTENT_TYPE)
  return structured ? decodeStructured(headers, raw.value) : decodeBinary(headers, raw.value)
}

/** Written out (no Either per step): it runs for every record. */
const decodeBinary = (headers: Readonly<Record<string, string>>, value: Uint8Array | null): E.Either<Poison, DecodedEnvelope> => {
  if (value === null || value.length === 0) return E.left(noValue())
  let payload: unknown
  try {
    payload = JSON.parse(utf8.decode(value))
  } catch (e) {
    return E.left(notJson(e))
  }
  const context = contextFromHeaders(headers)
  return context === undefined ? missingId() : E.right({ context, payload })
}

const decodeStructured = (headers: Readonly<Record<string, string>>, value: Uint8Array | null): E.Either<Poison, DecodedEnvelope> => {
  const body = parseJson(value)
  if (E.isLeft(body)) return body
  if (!isRecord(body.right)) return E.left(poison('undecodable', 'structured CloudEvent is not a JSON object'))
  const context = contextFromBody(body.right, headers)
  return E.isLeft(context) ? context : E.right({ context: context.right, payload: body.right['data'] })
}
