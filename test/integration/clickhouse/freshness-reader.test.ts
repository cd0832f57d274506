import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { FactStore } from '../../../src/application/ports/fact-store.port.js'
import type { getConversionFunnel } from '../../../src/application/read/get-conversion-funnel.js'
import { loadConfig } from '../../../src/composition/config.js'
import { createContainer } from '../../../src/composition/container.js'
import { TOKENS } from '../../../src/composition/tokens.js'
import { at, dimPath, funnelFact, id } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'

// Spec §8 from the store: the process that ingests (its container's FactStore, the object its
// engines append through) and a separate reader process that runs no consumer and has no broker
// report the same funnel with the same preliminary marks.
const DATABASE = 'i11_freshness_reader'
const env = { DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(), DEV_STATS_CLICKHOUSE_DATABASE: DATABASE, DEV_STATS_LOG_LEVEL: 'silent' }
const READER = fileURLToPath(new URL('./funnel-reader.ts', import.meta.url))
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE })
const DAY = '2026-11-30'
const T = at(`${DAY}T12:00:00Z`)

const readerReport = (developerId: string): unknown => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', READER, developerId, DAY], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 })
  if (r.status !== 0) throw new Error(`reader process failed (${r.status}):\n${r.stdout}${r.stderr}`)
  return JSON.parse(r.stdout)
}

describe('funnel freshness read from the store', () => {
  const container = createContainer(loadConfig(env))
  const dev = id()
  const p = dimPath(dev)

  beforeAll(async () => {
    await resetDatabase(session)
    const store = container.get<FactStore>(TOKENS.FactStore)
    await store.append([funnelFact('Favorites', p, id(), T - 20_000), funnelFact('Favorites', p, id(), T - 5_000)], T)
    await store.append([funnelFact('Bookings', p, id(), T - 900_000)], T)
    await store.append([funnelFact('Deals', p, id(), T - 1_000)], T)
  })

  afterAll(() => session.close())

  it('a reader with no consumers reports the same stages and marks as the ingesting process', async () => {
    const mine = await container.get<ReturnType<typeof getConversionFunnel>>(TOKENS.GetConversionFunnel)({ developerId: dev }, { fromDate: DAY, toDate: DAY })
    expect(E.isRight(mine) && Object.fromEntries(mine.right.map((s) => [s.stage, [s.count, s.status]]))).toEqual({
      Views: [0, 'live'], Favorites: [2, 'live'], Selections: [0, 'live'], Leads: [0, 'no-source'],
      Bookings: [1, 'preliminary'], BookingsPaid: [0, 'live'], Deals: [1, 'live'], DealsCompleted: [0, 'live'],
    })
    expect(readerReport(dev)).toEqual(JSON.parse(JSON.stringify(mine)))
  })
})
