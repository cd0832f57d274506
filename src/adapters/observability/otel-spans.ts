import { createTraceState, SpanStatusCode, type Attributes, type Link, type Span } from '@opentelemetry/api'
import type { OutboundRecord } from '../../application/ports/broker.port.js'
import type { TracedBatch } from '../../application/ports/tracer.port.js'
import { clickhouseStatusOf, errorTypeOf } from './error-type.js'
import * as sc from './semconv.js'
import { spanContextOf } from './trace-links.js'

/**
 * The `process` span of a batch: what all its records share goes on the span (topic, partition
 * when one), what varies goes on each record's link (message id, partition, offset), as the
 * messaging conventions ask for batches; the offsets it covers per partition in one attribute.
 */
export const processSpan = (batch: TracedBatch): { name: string; attributes: Attributes } => {
  const ranges = new Map<string, { topic: string; partition: number; first: string; last: string }>()
  for (const r of batch.records) {
    const key = `${r.topic}/${r.partition}`
    const range = ranges.get(key)
    if (!range) ranges.set(key, { topic: r.topic, partition: r.partition, first: r.offset, last: r.offset })
    else if (Number(r.offset) < Number(range.first)) range.first = r.offset
    else if (Number(r.offset) > Number(range.last)) range.last = r.offset
  }
  const all = [...ranges.values()]
  const topics = new Set(all.map((r) => r.topic))
  const [topic] = topics
  const single = topics.size === 1 ? topic : undefined
  const attributes: Attributes = {
    [sc.ATTR_MESSAGING_SYSTEM]: sc.MESSAGING_SYSTEM_VALUE_KAFKA,
    [sc.ATTR_MESSAGING_OPERATION_NAME]: sc.MESSAGING_OPERATION_TYPE_VALUE_PROCESS,
    [sc.ATTR_MESSAGING_OPERATION_TYPE]: sc.MESSAGING_OPERATION_TYPE_VALUE_PROCESS,
    [sc.ATTR_MESSAGING_CONSUMER_GROUP_NAME]: batch.groupId,
    [sc.ATTR_MESSAGING_BATCH_MESSAGE_COUNT]: batch.records.length,
    [sc.ATTR_DEV_STATS_OFFSET_RANGES]: all.map((r) => `${r.topic}/${r.partition}:${r.first}-${r.last}`),
  }
  if (single !== undefined) attributes[sc.ATTR_MESSAGING_DESTINATION_NAME] = single
  if (single !== undefined && all.length === 1) attributes[sc.ATTR_MESSAGING_DESTINATION_PARTITION_ID] = String(all[0]?.partition)
  return { name: single !== undefined ? `process ${single}` : 'process', attributes }
}

/** One link per record that carried a valid trace context, with that record's own attributes. */
export const batchLinks = (batch: TracedBatch): Link[] => {
  const links: Link[] = []
  for (let i = 0; i < batch.linked.length; i++) {
    const r = batch.linked[i]
    const c = batch.contexts[i]
    const context = c?.traceparent !== undefined ? spanContextOf(c.traceparent) : undefined
    if (!r || !c || !context) continue
    if (c.tracestate !== undefined) context.traceState = createTraceState(c.tracestate)
    links.push({
      context,
      attributes: {
        [sc.ATTR_MESSAGING_MESSAGE_ID]: c.messageId,
        [sc.ATTR_MESSAGING_DESTINATION_NAME]: r.topic,
        [sc.ATTR_MESSAGING_DESTINATION_PARTITION_ID]: String(r.partition),
        [sc.ATTR_MESSAGING_KAFKA_OFFSET]: Number(r.offset),
      },
    })
  }
  return links
}

/**
 * Dead letters and parked copies keep their producer's trace context (binary mode headers), so a
 * publish links to it instead of injecting its own, as the conventions' "send (client)" span does.
 */
export const outboundLinks = (records: readonly OutboundRecord[]): Link[] => {
  const links: Link[] = []
  for (const r of records) {
    const traceparent = r.headers['ce_traceparent'] ?? r.headers['traceparent']
    const context = traceparent !== undefined ? spanContextOf(traceparent) : undefined
    if (context) links.push({ context, ...(r.headers['ce_id'] !== undefined ? { attributes: { [sc.ATTR_MESSAGING_MESSAGE_ID]: r.headers['ce_id'] } } : {}) })
  }
  return links
}

/** Status ERROR, error.type and an exception event, all from the error's type or code: no message. */
export const recordFailure = (span: Span, e: unknown): void => {
  const type = errorTypeOf(e)
  const status = clickhouseStatusOf(e)
  span.setAttribute(sc.ATTR_ERROR_TYPE, type)
  if (status !== undefined) span.setAttribute(sc.ATTR_DB_RESPONSE_STATUS_CODE, status)
  span.addEvent(sc.EVENT_EXCEPTION, { [sc.ATTR_EXCEPTION_TYPE]: type })
  span.setStatus({ code: SpanStatusCode.ERROR, message: type })
}

/** A batch with dead letters failed for those records: an exception event per reason code, with the count. */
export const recordDeadLetters = (span: Span, reasons: ReadonlyMap<string, number>): void => {
  if (reasons.size === 0) return
  const codes = [...reasons.keys()].sort()
  for (const reason of codes) {
    const count = reasons.get(reason) ?? 0
    span.addEvent(sc.EVENT_EXCEPTION, {
      [sc.ATTR_EXCEPTION_TYPE]: reason,
      [sc.ATTR_EXCEPTION_MESSAGE]: `${count} record(s) dead-lettered: ${reason}`,
      [sc.ATTR_DEV_STATS_DEAD_LETTER_COUNT]: count,
    })
  }
  span.setAttribute(sc.ATTR_ERROR_TYPE, codes.join(','))
  span.setStatus({ code: SpanStatusCode.ERROR, message: `dead-lettered: ${codes.join(', ')}` })
}
