import type { EventContext } from '../../domain/envelope.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { BrokerRecord, OutboundRecord } from '../ports/broker.port.js'

/** A record and the rows it caused: the unit an insert isolates when the store refuses rows. */
export interface BatchEntry {
  readonly record: BrokerRecord
  readonly rows: readonly FactRow[]
}

/** What the records taken since the last flush caused; made durable together, then committed. */
export class PendingBatch {
  readonly entries: BatchEntry[] = []
  readonly outbound: OutboundRecord[] = []
  readonly settled: BrokerRecord[] = []
  /** Records that carried a trace context, and their contexts (same index): kept only while tracing. */
  readonly linked: BrokerRecord[] = []
  readonly contexts: EventContext[] = []
  /** Decided when the first slice is routed (Tracer.enabled), so that no record is asked about it. */
  tracing: boolean | undefined
  private readonly messageIds = new Set<string>()
  /** When the first record was taken: the flush interval runs from here, not from the last flush. */
  openedAt: number | undefined
  /** Bytes of the taken records' values. */
  bytes = 0
  /** Bytes this batch took from the memory budget: given back once it is committed (or abandoned). */
  budgeted = 0
  /** Rows per insert, set when the batch is sealed (a catching-up batch is inserted whole). */
  insertRows: number | undefined

  get size(): number {
    return this.settled.length
  }

  get rowCount(): number {
    return this.entries.reduce((n, e) => n + e.rows.length, 0)
  }

  /** Message ids taken into this batch (in-batch dedup). */
  get seen(): ReadonlySet<string> {
    return this.messageIds
  }

  sighted(messageId: string): void {
    this.messageIds.add(messageId)
  }

  /** A record whose producer's trace the batch span links to. */
  link(r: BrokerRecord, context: EventContext): void {
    this.linked.push(r)
    this.contexts.push(context)
  }

  settle(r: BrokerRecord, rows: readonly FactRow[] = [], outbound?: OutboundRecord): void {
    this.openedAt ??= performance.now()
    this.settled.push(r)
    this.bytes += r.value?.length ?? 0
    if (rows.length > 0) this.entries.push({ record: r, rows })
    if (outbound) this.outbound.push(outbound)
  }

  /** The entries in inserts of at most `maxRows` rows (a record's rows stay together). */
  chunks(maxRows: number): BatchEntry[][] {
    const chunks: BatchEntry[][] = []
    let current: BatchEntry[] = []
    let rows = 0
    for (const e of this.entries) {
      if (current.length > 0 && rows + e.rows.length > maxRows) {
        chunks.push(current)
        current = []
        rows = 0
      }
      current.push(e)
      rows += e.rows.length
    }
    if (current.length > 0) chunks.push(current)
    return chunks
  }
}
