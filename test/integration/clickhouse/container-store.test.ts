import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { FactStore } from '../../../src/application/ports/fact-store.port.js'
import type { ReadModel } from '../../../src/application/ports/read-model.port.js'
import { loadConfig } from '../../../src/composition/config.js'
import { createContainer } from '../../../src/composition/container.js'
import { TOKENS } from '../../../src/composition/tokens.js'
import { at, dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'

// DEV_STATS_STORE=embedded end to end through the container: a fresh data directory is migrated
// on first use, so appending and reading need no server and no separate migrate step.
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-embedded-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('container with the embedded store', () => {
  it('migrates a fresh directory on first use, then appends and reads', async () => {
    const c = createContainer(loadConfig({ DEV_STATS_STORE: 'embedded', DEV_STATS_EMBEDDED_PATH: dir, DEV_STATS_LOG_LEVEL: 'silent' }))
    const store = c.get<FactStore>(TOKENS.FactStore)
    const dev = id()
    const s = id()
    const t = at('2026-11-30T10:00:00Z')
    await store.append([sessionFact({ sessionId: s, durationSeconds: 30 }), viewFact(dimPath(dev), s, t)], t)
    const totals = (await c.get<ReadModel>(TOKENS.ReadModel).sessionMetrics(dev, { from: t, to: t + 1000 })).sessions
    expect(totals.sessions).toBe(1)
    expect(totals.totalDurationSeconds).toBe(30)
  })
})
