import { SpanStatusCode, trace, type Link } from '@opentelemetry/api'
import type { Tracer } from '../../application/ports/tracer.port.js'

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

const linkOf = (traceparent: string): Link | undefined => {
  const m = TRACEPARENT.exec(traceparent)
  if (!m) return undefined
  return { context: { traceId: m[1] as string, spanId: m[2] as string, traceFlags: Number.parseInt(m[3] as string, 16), isRemote: true } }
}

/**
 * Spans through @opentelemetry/api: a no-op until the host registers an SDK. A batch has many
 * producers, so their trace contexts become span links rather than one parent.
 */
export class OtelTracer implements Tracer {
  private readonly tracer = trace.getTracer('dev-stats-ingest')

  span<T>(name: string, attributes: Readonly<Record<string, string | number>>, work: () => Promise<T>, links: readonly string[] = []): Promise<T> {
    const spanLinks = links.slice(0, 128).flatMap((tp) => linkOf(tp) ?? [])
    return this.tracer.startActiveSpan(name, { attributes, links: spanLinks }, async (span) => {
      try {
        return await work()
      } catch (e) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(e) })
        throw e
      } finally {
        span.end()
      }
    })
  }
}
