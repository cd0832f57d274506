import { isValidSpanId, isValidTraceId, type SpanContext } from '@opentelemetry/api'

// W3C Trace Context: version-traceid-parentid-flags; a later version may append fields after a '-'.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/

/** The remote span context a W3C `traceparent` value names; undefined when it is not a valid one. */
export const spanContextOf = (traceparent: string): SpanContext | undefined => {
  const m = TRACEPARENT.exec(traceparent.trim())
  if (!m) return undefined
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined]
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined
  if (!isValidTraceId(traceId) || !isValidSpanId(spanId)) return undefined
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true }
}
