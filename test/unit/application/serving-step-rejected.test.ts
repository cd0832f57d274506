import { afterEach, describe, expect, it } from 'vitest'
import { InMemoryServingIndex } from '../../../src/adapters/memory/in-memory-serving-index.js'
import { viewEndedHandler } from '../../../src/application/handlers/view-ended.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import type { ServingSessionRow, ServingViewRow } from '../../../src/domain/serving-links.js'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload, viewEndedPayload } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

const views = viewEndedHandler()
const dims = propertyObjectUpsertedHandler()
const config = { maxBatchRows: 1000, flushIntervalMs: 20, sinkBackoff: { initialMs: 5, maxMs: 20 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } } }
let h: Harness
afterEach(async () => h?.stopAll())

/** Serving tables that, like a serving column narrower than the fact's, refuse any write holding a view row of marked duration. */
class RefusingServingIndex extends InMemoryServingIndex {
  outages = 0
  override async write(v: readonly ServingViewRow[], s: readonly ServingSessionRow[]): Promise<void> {
    if (this.outages-- > 0) throw new StoreError('connect ECONNREFUSED', true, 'ECONNREFUSED')
    if (v.some((r) => r.durationSeconds === 666)) throw new StoreError('ClickHouse error 53: Code: 53, e.displayText() = DB::Exception: Type mismatch in serving row', false, 'CLICKHOUSE_53')
    await super.write(v, s)
  }
}

/** A harness whose serving step goes through RefusingServingIndex, with one property object stored. */
const startWithRefusingServing = async () => {
    h = new Harness([views, dims], config)
    const serving = new RefusingServingIndex(h.tables)
    h.sink = new ServingFactStore(h.store, serving)
    await h.start()
    const p = path()
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(p)))
    await waitUntil(() => h.caughtUp(dims))
  return { serving, p }
}

describe('the serving step classifies its errors as the fact insert does', () => {
  it('a serving row the store refuses: that record dead-lettered as store-rejected with the serving code, the others served and committed', async () => {
    const { serving, p } = await startWithRefusingServing()
    const sessionId = guid()
    const records = [60, 666, 70].map((d) => binaryRecord(views.topic, viewEndedPayload(p, sessionId, { PropertyObjectViewId: guid(), DurationSeconds: d }), { key: 'one' }))
    h.publish(...records)
    await waitUntil(() => h.caughtUp(views), 5000, 'views committed past the refused record')
    const dlq = h.dlq(views)
    expect(dlq.map((r) => [r.headers['ce_id'], r.headers['dlq-reason'], r.headers['dlq-detail']])).toEqual([
      [records[1]?.headers['ce_id'], 'store-rejected', 'SERVING_STEP/CLICKHOUSE_53: Type mismatch in serving row'],
    ])
    expect(h.tables.serving.views.map((r) => r.durationSeconds).sort()).toEqual([60, 70])
    expect(h.engine(views.name).stats.sinkRetries).toBe(0)
  })

  it('a transient failure of the serving step is retried, nothing dead-lettered', async () => {
    const { serving, p } = await startWithRefusingServing()
    serving.outages = 3
    h.publish(binaryRecord(views.topic, viewEndedPayload(p, guid(), { DurationSeconds: 60 })))
    await waitUntil(() => h.caughtUp(views), 5000, 'committed after the outage')
    expect(h.dlq(views)).toEqual([])
    expect(h.tables.serving.views).toHaveLength(1)
    expect(h.engine(views.name).stats.sinkRetries).toBe(3)
  })
})
