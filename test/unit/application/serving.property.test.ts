import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryServingIndex } from '../../../src/adapters/memory/in-memory-serving-index.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import { FAST_CONFIG } from '../../support/harness.js'
import { expectServingEqualsFacts, failing, Harness, runScenario, scenarioArbitrary, scenarioRecords, SERVING_HANDLERS, startServingHarness } from '../../support/serving-scenario.js'

describe('serving tables kept at ingest answer what the raw facts answer (in memory)', () => {
  let h: Harness | undefined
  afterEach(async () => h?.stopAll())

  it('any order, redeliveries, moved property objects, serving steps failing after the facts', async () => {
    let counted = 0
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        h = new Harness(SERVING_HANDLERS, { ...FAST_CONFIG, flushIntervalMs: 5 })
        const serving = failing(new InMemoryServingIndex(h.tables))
        h.sink = new ServingFactStore(h.store, serving)
        await startServingHarness(h)
        const { developers, steps } = scenarioRecords(scenario)
        await runScenario(h, scenario, steps, serving)
        counted += await expectServingEqualsFacts(new InMemoryReadModel(h.tables, 'serving'), new InMemoryReadModel(h.tables, 'facts'), developers)
        await h.stopAll()
        h = undefined
      }),
      { numRuns: 100 },
    )
    // the generator produces sessions that count, not only empty answers
    expect(counted).toBeGreaterThan(0)
  }, 300_000)
})
