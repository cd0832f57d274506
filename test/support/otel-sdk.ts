import { trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'

/**
 * A tracing SDK registered the way a host registers one: a provider with a span processor and an
 * exporter, set as the global tracer provider (no context manager: the spans' tree must hold
 * without one). The exporter keeps the finished spans in memory.
 */
export const registerSdk = (): { exporter: InMemorySpanExporter; provider: BasicTracerProvider } => {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  if (!trace.setGlobalTracerProvider(provider)) throw new Error('a tracer provider was already registered')
  return { exporter, provider }
}

export const unregisterSdk = async (provider: BasicTracerProvider): Promise<void> => {
  await provider.shutdown()
  trace.disable()
}

export const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId

/** Every attribute name a span carries: its own, its links', its events'. */
export const attributeNamesOf = (spans: readonly ReadableSpan[]): Set<string> =>
  new Set(
    spans.flatMap((s) => [
      ...Object.keys(s.attributes),
      ...s.links.flatMap((l) => Object.keys(l.attributes ?? {})),
      ...s.events.flatMap((e) => Object.keys(e.attributes ?? {})),
    ]),
  )

/** A W3C traceparent with fresh random ids, as a producer's SDK would inject it. */
export const newTraceparent = (): { traceparent: string; traceId: string; spanId: string } => {
  const hex = (n: number) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, '0')).join('')
  const traceId = hex(16)
  const spanId = hex(8)
  return { traceparent: `00-${traceId}-${spanId}-01`, traceId, spanId }
}
