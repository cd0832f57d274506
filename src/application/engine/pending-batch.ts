import type { FactRow } from '../../domain/fact-row.js'
import type { BrokerRecord, OutboundRecord } from '../ports/broker.port.js'

/** What the records taken since the last flush caused; made durable together, then committed. */
export class PendingBatch {
  readonly rows: FactRow[] = []
  readonly outbound: OutboundRecord[] = []
  readonly settled: BrokerRecord[] = []
  readonly traceparents: string[] = []
  private readonly messageIds = new Set<string>()
  /** When the first record was taken: the flush interval runs from here, not from the last flush. */
  openedAt: number | undefined

  get size(): number {
    return this.settled.length
  }

  /** In-batch dedup by message id: true the first time an id is seen. */
  firstSighting(messageId: string): boolean {
    if (this.messageIds.has(messageId)) return false
    this.messageIds.add(messageId)
    return true
  }

  settle(r: BrokerRecord, rows: readonly FactRow[] = [], outbound?: OutboundRecord): void {
    this.openedAt ??= performance.now()
    this.settled.push(r)
    this.rows.push(...rows)
    if (outbound) this.outbound.push(outbound)
  }
}
