import { ROOT_CONTEXT, SpanKind, trace, type Attributes, type Context, type Span, type Tracer as ApiTracer } from '@opentelemetry/api'
import type { OutboundRecord } from '../../application/ports/broker.port.js'
import type { BatchSpan, DbCall, StoreTrace, TracedBatch, Tracer } from '../../application/ports/tracer.port.js'
import { batchLinks, outboundLinks, processSpan, recordFailure, recordDeadLetters } from './otel-spans.js'
import * as sc from './semconv.js'

const SCOPE = 'dev-stats-ingest'

/**
 * Spans through @opentelemetry/api, which stay a no-op until the host registers an SDK. Per
 * batch: a `process <topic>` CONSUMER span, a root linked to the trace context of every record that
 * carried one (a batch holds many producers' traces); its children are the store's database calls
 * (CLIENT, e.g. `INSERT session_facts`) and the publishes of dead letters and parked copies
 * (CLIENT `send <topic>`, linked to the records' own contexts, which they keep). Parents are
 * passed explicitly: the tree holds without a context manager.
 */
export class OtelTracer implements Tracer {
  /** False until an SDK registered a tracer provider (the API's proxy has no delegate before). */
  get enabled(): boolean {
    const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown }
    return typeof provider.getDelegateTracer === 'function' ? provider.getDelegateTracer(SCOPE) !== undefined : true
  }

  batch(batch: TracedBatch): BatchSpan {
    const tracer = trace.getTracer(SCOPE)
    const { name, attributes } = processSpan(batch)
    const span = tracer.startSpan(
      name,
      {
        kind: SpanKind.CONSUMER,
        attributes,
        links: batchLinks(batch),
        ...(batch.openedAt !== undefined ? { startTime: performance.timeOrigin + batch.openedAt } : {}),
      },
      ROOT_CONTEXT,
    )
    return new OtelBatchSpan(tracer, span)
  }
}

class OtelBatchSpan implements BatchSpan {
  private readonly context: Context
  readonly store: StoreTrace

  constructor(
    private readonly tracer: ApiTracer,
    private readonly span: Span,
  ) {
    this.context = trace.setSpan(ROOT_CONTEXT, span)
    this.store = { call: (call, work) => this.child(`${call.operation} ${call.collection}`, dbAttributes(call), [], work) }
  }

  publish<T>(records: readonly OutboundRecord[], work: () => Promise<T>): Promise<T> {
    const topic = records[0]?.topic
    const single = topic !== undefined && records.every((r) => r.topic === topic)
    const attributes: Attributes = {
      [sc.ATTR_MESSAGING_SYSTEM]: sc.MESSAGING_SYSTEM_VALUE_KAFKA,
      [sc.ATTR_MESSAGING_OPERATION_NAME]: sc.MESSAGING_OPERATION_TYPE_VALUE_SEND,
      [sc.ATTR_MESSAGING_OPERATION_TYPE]: sc.MESSAGING_OPERATION_TYPE_VALUE_SEND,
      [sc.ATTR_MESSAGING_BATCH_MESSAGE_COUNT]: records.length,
      ...(single ? { [sc.ATTR_MESSAGING_DESTINATION_NAME]: topic } : {}),
    }
    return this.child(single ? `send ${topic}` : 'send', attributes, outboundLinks(records), work)
  }

  deadLettered(reasons: ReadonlyMap<string, number>): void {
    recordDeadLetters(this.span, reasons)
  }

  end(error?: unknown): void {
    if (error !== undefined) recordFailure(this.span, error)
    this.span.end()
  }

  private async child<T>(name: string, attributes: Attributes, links: ReturnType<typeof outboundLinks>, work: () => Promise<T>): Promise<T> {
    const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes, links }, this.context)
    try {
      return await work()
    } catch (e) {
      recordFailure(span, e)
      throw e
    } finally {
      span.end()
    }
  }
}

const dbAttributes = (call: DbCall): Attributes => ({
  [sc.ATTR_DB_SYSTEM_NAME]: call.system,
  [sc.ATTR_DB_OPERATION_NAME]: call.operation,
  [sc.ATTR_DB_COLLECTION_NAME]: call.collection,
  [sc.ATTR_DB_QUERY_SUMMARY]: `${call.operation} ${call.collection}`,
  [sc.ATTR_DEV_STATS_ROW_COUNT]: call.rows,
  ...(call.namespace !== undefined ? { [sc.ATTR_DB_NAMESPACE]: call.namespace } : {}),
  ...(call.queryText !== undefined ? { [sc.ATTR_DB_QUERY_TEXT]: call.queryText } : {}),
  ...(call.serverAddress !== undefined ? { [sc.ATTR_SERVER_ADDRESS]: call.serverAddress } : {}),
  ...(call.serverPort !== undefined ? { [sc.ATTR_SERVER_PORT]: call.serverPort } : {}),
})
