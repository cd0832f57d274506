import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type { IngestService } from '../application/ingest-service.js'
import type { Broker } from '../application/ports/broker.port.js'
import type { getConversionFunnel } from '../application/read/get-conversion-funnel.js'
import type { getDeveloperSessionMetrics } from '../application/read/get-developer-session-metrics.js'
import type { Guid } from '../domain/guid.js'
import { loadConfig } from '../composition/config.js'
import { createContainer } from '../composition/container.js'
import { TOKENS } from '../composition/tokens.js'
import type { getFunnelScope } from '../application/read/get-funnel-scope.js'
import { developers, dimension, objects, START, stream, upperDimensions } from './demo-stream.js'
import { renderEngines, renderFunnel, renderScope, renderSessions } from './render.js'

// The whole pipeline on the configured adapters — in-memory broker and embedded ClickHouse (chdb)
// by default, in a fresh data directory each run — fed a generated stream.
const config = loadConfig({
  DEV_STATS_STORE: 'embedded',
  DEV_STATS_EMBEDDED_PATH: mkdtempSync(join(tmpdir(), 'dev-stats-demo-')),
  DEV_STATS_LOG_LEVEL: 'silent',
  DEV_STATS_FLUSH_INTERVAL_MS: '200',
  DEV_STATS_PARKING_BACKOFF_INITIAL_MS: '400',
  DEV_STATS_PARKING_BACKOFF_MAX_MS: '800',
  DEV_STATS_PARKING_MAX_ATTEMPTS: '6',
  ...process.env,
  DEV_STATS_FUNNEL_ENABLED: 'true',
})
const container = createContainer(config)
const service = container.get<IngestService>(TOKENS.IngestService)
const producer = container.get<Broker>(TOKENS.Broker).producer()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const processed = () =>
  service.engines.reduce((n, { stats: s }) => n + s.rowsIngested + s.deadLettered + s.parked + s.duplicatesDropped + [...s.skipped.values()].reduce((a, b) => a + b, 0), 0)

/** Until every engine has been idle for a second with nothing parked in memory. */
const quiesce = async () => {
  let last = -1
  while (processed() !== last || service.engines.some((e) => e.parkedInMemory > 0)) {
    last = processed()
    await sleep(1000)
  }
}

console.log(`dev-stats ingest demo: broker=${config.broker}, store=${config.store}, funnel flag on\n`)
await service.start()
const [late, ...known] = objects
if (!late) throw new Error('no demo objects')
await producer.publish([...upperDimensions(), ...known.map(dimension)])
await sleep(600) // the replica is filled before the day's events, as in production
const records = stream(late)
await producer.publish(records)
console.log(`published ${records.length} events (with redeliveries and poison); one property object's dimension is late`)
await sleep(1500)
await producer.publish([dimension(late)])
console.log('the late dimension arrived\n')
await quiesce()
await service.stop()

console.log(`what each of the ${service.engines.length} topics did:`)
console.log(renderEngines(service.engines), '\n')
const developer = developers[0] as (typeof developers)[number]
const actor = { developerId: developer.id as Guid }
const sessions = container.get<ReturnType<typeof getDeveloperSessionMetrics>>(TOKENS.GetSessionMetrics)
const funnel = container.get<ReturnType<typeof getConversionFunnel>>(TOKENS.GetConversionFunnel)
const scopeOf = container.get<ReturnType<typeof getFunnelScope>>(TOKENS.GetFunnelScope)
const named = async (filter: Parameters<typeof scopeOf>[1]) => {
  const scope = await scopeOf(actor, filter)
  return E.isRight(scope) ? renderScope(scope.right) : developer.id
}
const metrics = await sessions(actor, { from: START - 3_600_000, to: Date.now() + 3_600_000 })
if (E.isRight(metrics)) console.log(renderSessions(await named({}), metrics.right), '\n')
const range = { fromDate: new Date(START).toISOString().slice(0, 10), toDate: new Date().toISOString().slice(0, 10) }
const report = await funnel(actor, range)
if (E.isRight(report)) console.log(renderFunnel(await named({}), report.right), '\n')
const project = objects.find((o) => o.developerId === developer.id && o !== late)?.path
const filter = { projectId: project?.ProjectId as Guid, buildingId: project?.BuildingId as Guid }
const narrowed = await funnel(actor, range, filter)
if (E.isRight(narrowed)) console.log(renderFunnel(await named(filter), narrowed.right))
const refused = await sessions(null, { from: 0, to: Date.now() })
console.log(`\nwithout an actor the read side refuses: ${E.isLeft(refused) ? refused.left.code : 'NOT REFUSED'}`)
