import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutboundRecord } from '../../../src/application/ports/broker.port.js'
import { LEVEL_ID_FIELD } from '../../../src/domain/dimension-path.js'
import { UPPER_LEVELS } from '../../../src/domain/dimension-upsert.js'
import { isolatedDeployment } from '../../support/deployment.js'
import {
  binaryRecord, funnelEventPayload, leadCreatedPayload, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewActionPayload, viewEndedPayload,
  type Path,
} from '../../support/events.js'
import { dashboardExpressions, metricNamesIn, RULES_FILE, withoutThresholds, withVariables } from '../../support/grafana-dashboard.js'
import { freePort } from '../../support/http.js'
import { kafkaBroker } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { OwnPrometheus, requirePrometheus, type QueryAnswer } from '../../support/own-prometheus.js'
import { removeRunResources } from '../../support/run-resources.js'

// Issue 19: the Grafana dashboard and the alert rules, evaluated by a real Prometheus (Debian's
// package) that scrapes a running `npm start` and loads ops/prometheus/dev-stats.rules.yml. The
// traffic reaches every table and includes poison, a late dimension that arrives, one that never
// does (a dimension gap), a skipped lead and a contract version mismatch. Every panel query and
// every alert condition must parse and return series: a metric renamed in the code fails here.
const ADAPTER = 'kafkajs'
const d = isolatedDeployment(ADAPTER, 'grafana', {
  DEV_STATS_FUNNEL_ENABLED: 'true',
  DEV_STATS_HTTP_HOST: '127.0.0.1',
  DEV_STATS_LAG_INTERVAL_MS: '1000',
  DEV_STATS_PARKING_BACKOFF_INITIAL_MS: '500',
  DEV_STATS_PARKING_BACKOFF_MAX_MS: '1000',
  DEV_STATS_PARKING_MAX_ATTEMPTS: '6',
})
const RULE_COUNT = [...readFileSync(RULES_FILE, 'utf8').matchAll(/- alert: /g)].length
let service: NpmStart | undefined
let prometheus: OwnPrometheus | undefined
let metricsUrl = ''

const metricsText = async () => (await fetch(metricsUrl).then((r) => r.text(), () => ''))
const counted = async (name: string) =>
  (await metricsText()).split('\n').filter((l) => l.startsWith(`${name}{`)).reduce((n, l) => n + Number(l.split(' ').at(-1)), 0)

const upperDimension = (p: Path, level: (typeof UPPER_LEVELS)[number]): Record<string, unknown> => ({
  ...p, Id: p[LEVEL_ID_FIELD[level] as keyof Path], UpsertedAt: '2026-11-01T00:00:00Z', Name: level,
})

beforeAll(async () => {
  requirePrometheus()
  const httpPort = await freePort()
  d.env.DEV_STATS_HTTP_PORT = String(httpPort)
  metricsUrl = `http://127.0.0.1:${httpPort}/metrics`
  expect(npmRun(['migrate'], d.env).code).toBe(0)
  const topics = npmRun(['topics'], d.env)
  expect(topics.code, topics.output).toBe(0)
  service = new NpmStart(d.env)
  await eventuallyAsync(async () => (await metricsText()).includes('dev_stats_consumer_joined{consumer="session-ended"} 1'), 90_000, `npm start serving /metrics:\n${service.output}`)
  prometheus = new OwnPrometheus(await freePort(), `127.0.0.1:${httpPort}`, [RULES_FILE])
  await prometheus.start()
})

afterAll(async () => {
  await prometheus?.stop()
  await service?.stop()
  await removeRunResources(d.topics, [d.database])
})

describe('the Grafana dashboard and the alert rules on a real Prometheus scraping npm start', () => {
  it('every panel query and every alert condition parses and returns series', async () => {
    const broker = kafkaBroker(ADAPTER)
    const publish = (...records: OutboundRecord[]) => broker.producer().publish(records)
    const source = (key: string) => d.topicsOf(key).source
    const known = path()
    const late = path()
    const never = path()
    await publish(
      binaryRecord(source('PROPERTY_OBJECT_UPSERTED'), propertyObjectUpsertedPayload(known)),
      ...UPPER_LEVELS.map((level) => binaryRecord(source(`${level.toUpperCase().replace(/-/g, '_')}_UPSERTED`), upperDimension(known, level))),
    )
    await eventuallyAsync(async () => (await counted('dev_stats_dim_property_object_ingested_total')) >= 1, 60_000, 'the dimension ingested')
    const session = sessionEndedPayload()
    await publish(
      binaryRecord(source('SESSION_ENDED'), session),
      binaryRecord(source('SESSION_ENDED'), sessionEndedPayload(), { contractVersion: '2' }),
      binaryRecord(source('SESSION_ENDED'), 'not json'),
      binaryRecord(source('VIEW_ENDED'), viewEndedPayload(known, session.SessionId as string)),
      binaryRecord(source('ACTION_TRACKED'), viewActionPayload(known)),
      binaryRecord(source('FAVORITES'), funnelEventPayload('FavoriteId', known.PropertyObjectId)),
      binaryRecord(source('LEAD_CREATED'), leadCreatedPayload({ OriginPropertyObjectId: known.PropertyObjectId })),
      binaryRecord(source('LEAD_CREATED'), leadCreatedPayload({ OriginPropertyObjectId: null })),
      binaryRecord(source('FAVORITES'), funnelEventPayload('FavoriteId', late.PropertyObjectId)),
    )
    // the late dimension arrives while its favorite is parked: recovered
    await eventuallyAsync(async () => (await counted('dev_stats_parked_total')) >= 1, 60_000, 'a parked favorite')
    await publish(binaryRecord(source('PROPERTY_OBJECT_UPSERTED'), propertyObjectUpsertedPayload(late)))
    await eventuallyAsync(async () => (await counted('dev_stats_parking_recovered_total')) >= 1, 60_000, 'the parked favorite recovered')
    // this one never arrives: dead-lettered as dimension-gap after the last attempt
    await publish(binaryRecord(source('FAVORITES'), funnelEventPayload('FavoriteId', never.PropertyObjectId)))
    await eventuallyAsync(async () => (await counted('dev_stats_dimension_gap_total')) >= 1, 60_000, `a dimension gap:\n${service?.output.slice(-2000)}`)
    await broker.close()

    const prom = prometheus as OwnPrometheus
    const panels = dashboardExpressions().map((e) => ({ what: `panel "${e.panel}" ${e.refId}`, expr: withVariables(e.expr) }))
    const rules = async () => (await prom.get<{ groups: { rules: { name: string; query: string; health: string; lastError?: string }[] }[] }>('/api/v1/rules')).groups.flatMap((g) => g.rules)
    await eventuallyAsync(async () => (await rules()).length === RULE_COUNT && (await rules()).every((r) => r.health === 'ok'), 30_000, 'the rules loaded and evaluated')
    const alerts = (await rules()).flatMap((r) => [
      { what: `alert ${r.name} without its thresholds`, expr: withoutThresholds(r.query) },
      ...metricNamesIn(r.query).map((name) => ({ what: `alert ${r.name} selector`, expr: name })),
    ])
    const checks = [...panels, ...alerts]
    // Polled until each has answered with series at least once: rate() over 1m needs two scrapes
    // after a counter first appears, and on a busy machine a scrape may miss its 1 s timeout
    // (Prometheus then marks that scrape's series stale for a moment).
    const answered = new Set<string>()
    const last = new Map<string, QueryAnswer>()
    await eventuallyAsync(async () => {
      for (const c of checks.filter((c) => !answered.has(c.expr))) {
        const answer = await prom.query(c.expr)
        last.set(c.expr, answer)
        if (answer.ok && answer.series.length > 0) answered.add(c.expr)
      }
      return checks.every((c) => answered.has(c.expr))
    }, 60_000, 'every expression with series').catch(() => undefined)
    const failing = checks.filter((c) => !answered.has(c.expr)).map((c) => {
      const answer = last.get(c.expr)
      return `${c.what}: ${c.expr} → ${answer === undefined ? 'not asked' : answer.ok ? 'no series' : answer.error}`
    })
    const targets = await prom.get<{ activeTargets: { health: string; lastError: string }[] }>('/api/v1/targets')
    expect(failing, `scrape target: ${targets.activeTargets.map((t) => `${t.health} ${t.lastError}`).join(', ')}`).toEqual([])
    expect(panels.length).toBeGreaterThanOrEqual(25)

    // the conditions as written parse and evaluate (quiet: none of them holds here)
    for (const r of await rules()) {
      const answer = await prom.query(r.query)
      expect(answer.ok, `${r.name}: ${r.query}`).toBe(true)
      expect(r.lastError ?? '').toBe('')
    }
    const consumers = await prom.get<string[]>(`/api/v1/label/consumer/values?match[]=dev_stats_consumer_joined`)
    expect(consumers).toEqual(expect.arrayContaining(['session-ended', 'funnel-lead-created', 'dim-property-object']))
  })
})
