import type { FactStore } from '../../src/application/ports/fact-store.port.js'
import type { FactRow } from '../../src/domain/fact-row.js'
import { FUNNEL_STAGES } from '../../src/domain/funnel.js'
import type { Instant } from '../../src/domain/instant.js'
import { funnelFact, id, sessionFact, upperDimFact, viewFact } from '../../src/testing/contracts/fact-rows.mother.js'
import { developerId, objectPath, OBJECTS_PER_DEVELOPER } from './load.js'

// What a running ingest does to the read side, once a second: a batch per topic through the
// fact store the service composes (ServingFactStore over ClickHouseFactStore and
// ClickHouseServingIndex: the facts, then the link lookups and the serving rows), so the raw,
// link and serving tables all change (each insert a new part, each a new read-cache version).
// Rows from the fact-row mothers, for the bench's developers and their property objects:
// sessions that started a minute ago with a view by each developer of the pair (within the
// session, as the serving tables assume), funnel rows of today, and a developer name; with a heavy
// developer, also a session of its own with one of its views, every tick.

const SESSIONS_PER_TICK = 5
const FUNNEL_ROWS_PER_TICK = 40

const pick = (developers: number, spare: number): number => {
  for (;;) {
    const d = Math.floor(Math.random() * developers)
    if (d !== spare) return d
  }
}

/**
 * One tick's batches: views, sessions, funnel rows, a dimension row. `spare` is never written (the
 * single-read developer); `heavy`, the heavy developer's index, gets a session and a view each tick.
 */
export const tickBatches = (developers: number, spare: number, now: Instant, heavy?: number): { readonly what: string; readonly rows: FactRow[] }[] => {
  const t = Math.floor(now / 1000) * 1000
  const views: FactRow[] = []
  const sessions: FactRow[] = []
  for (let i = 0; i < SESSIONS_PER_TICK; i++) {
    const d = pick(developers, spare)
    // the pair's other developer views in the same session, as in the loaded data
    const partner = d ^ 1
    const sessionId = id()
    const startedAt = t - 60_000
    sessions.push(sessionFact({ sessionId, at: startedAt }))
    for (const [k, dev] of [d, partner === spare ? d : partner].entries()) {
      views.push(viewFact(objectPath(dev, Math.floor(Math.random() * OBJECTS_PER_DEVELOPER)), sessionId, startedAt + k * 30_000, Math.random() < 0.7))
    }
  }
  if (heavy !== undefined) {
    const sessionId = id()
    sessions.push(sessionFact({ sessionId, at: t - 60_000 }))
    views.push(viewFact(objectPath(heavy, Math.floor(Math.random() * OBJECTS_PER_DEVELOPER)), sessionId, t - 30_000, Math.random() < 0.7))
  }
  const funnel = Array.from({ length: FUNNEL_ROWS_PER_TICK }, (_, i) => {
    const d = pick(developers, spare)
    return funnelFact(FUNNEL_STAGES[i % FUNNEL_STAGES.length] ?? 'Views', objectPath(d, Math.floor(Math.random() * OBJECTS_PER_DEVELOPER)), id(), t)
  })
  const named = pick(developers, spare)
  return [
    { what: 'views', rows: views },
    { what: 'sessions', rows: sessions },
    { what: 'funnel', rows: funnel },
    { what: 'dimension', rows: [upperDimFact('developer', developerId(named), t, `Developer ${named}`)] },
  ]
}

/** Appends a tick's batches through the store, one append per batch (a consumer's flush each). */
export const ingestTick = async (store: FactStore, developers: number, spare: number, heavy?: number): Promise<void> => {
  for (const { rows } of tickBatches(developers, spare, Date.now(), heavy)) await store.append(rows, Date.now())
}

/** Runs ingestTick once a second until stopped; counts the ticks and their failures. */
export const writer = (store: FactStore, developers: number, spare: number, heavy?: number): { stop: () => Promise<{ ticks: number; failures: number; slowest: number }> } => {
  let running = true
  let ticks = 0
  let failures = 0
  let slowest = 0
  const loop = (async () => {
    while (running) {
      const started = Date.now()
      try {
        await ingestTick(store, developers, spare, heavy)
      } catch (e) {
        failures++
        if (failures <= 3) process.stderr.write(`writer: ${e instanceof Error ? e.message : String(e)}\n`)
      }
      ticks++
      slowest = Math.max(slowest, Date.now() - started)
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))))
    }
  })()
  return { stop: async () => ((running = false), await loop, { ticks, failures, slowest }) }
}
