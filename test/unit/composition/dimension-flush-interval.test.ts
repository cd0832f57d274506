import { afterEach, describe, expect, it } from 'vitest'
import { PROPERTY_OBJECT_UPSERTED_TOPIC } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { SESSION_ENDED_TOPIC } from '../../../src/application/handlers/session-ended.handler.js'
import type { FactStore } from '../../../src/application/ports/fact-store.port.js'
import { createDevStatsIngest, type DevStatsIngest } from '../../../src/index.js'
import { InMemoryBroker, InMemoryFactStore, InMemoryTables } from '../../../src/testing.js'
import { binaryRecord, path, propertyObjectUpsertedPayload, sessionEndedPayload } from '../../support/events.js'
import { until } from '../../support/http.js'

describe('DEV_STATS_DIMENSION_FLUSH_INTERVAL_MS', () => {
  const running: DevStatsIngest[] = []
  afterEach(async () => {
    for (const i of running.splice(0)) await i.stop()
  })

  it('the property-object consumer flushes after it (500 ms) while the others wait the flush interval (5 s, slow batches never early)', async () => {
    const broker = new InMemoryBroker()
    const stored = new InMemoryFactStore(new InMemoryTables())
    const appended: string[] = []
    const recording: FactStore = {
      append: async (rows, at) => {
        await stored.append(rows, at)
        appended.push(...rows.map((r) => r.table))
      },
    }
    const ingest = createDevStatsIngest({ config: { logLevel: 'silent', engine: { slowBatchFlushMs: 0 } }, ports: { broker, factStore: recording } })
    running.push(ingest)
    await ingest.start()
    await broker.producer().publish([
      binaryRecord(PROPERTY_OBJECT_UPSERTED_TOPIC, propertyObjectUpsertedPayload(path())),
      binaryRecord(SESSION_ENDED_TOPIC, sessionEndedPayload()),
    ])
    const sent = Date.now()
    await until('the dimension stored', async () => appended.includes('dim_property_object'), 3000, 20)
    expect(Date.now() - sent).toBeLessThan(2000)
    expect(appended).not.toContain('session_facts')
  })
})
