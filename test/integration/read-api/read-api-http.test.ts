import Fastify, { type FastifyInstance } from 'fastify'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { ClickHouseStageProgressReader } from '../../../src/adapters/clickhouse/clickhouse-stage-progress.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { createTokenVerifier, readApiPlugin } from '../../../src/adapters/http/read-api/index.js'
import { getConversionFunnel } from '../../../src/application/read/get-conversion-funnel.js'
import { getDeveloperSessionMetrics } from '../../../src/application/read/get-developer-session-metrics.js'
import { getFunnelScope } from '../../../src/application/read/get-funnel-scope.js'
import { storeFreshness } from '../../../src/application/read/stage-freshness.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { at, dimPath, funnelFact, id, sessionFact, upperDimFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, resetDatabase, servingFactStore } from '../../support/clickhouse.js'
import { openApiValidator, type SeenResponse } from '../../support/openapi.js'
import { keyPair, secretBytes, signToken, unsignedToken } from '../../support/tokens.js'

// Issue 21: the read side over real HTTP on the real ClickHouse server, with the holdout scenario
// of spec §8. Every response the test sees is checked against the OpenAPI document the plugin serves.
const database = `read_api_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const ISSUER = 'https://id.dev-stats.test'
const AUDIENCE = 'dev-stats-read'
const T = at('2026-11-10T12:00:00Z')

const D1 = id()
const D2 = id()
const p1 = dimPath(D1)
const p2 = dimPath(D2)
const [A, B, C, N, Z] = [id(), id(), id(), id(), id()]
const sessions: Record<string, FactRow> = {
  A: sessionFact({ sessionId: A, durationSeconds: 100, at: T }),
  B: sessionFact({ sessionId: B, durationSeconds: 200, userId: null, at: T }),
  C: sessionFact({ sessionId: C, durationSeconds: 400, at: T }),
  // its view is in October, during the session (a view happens within its session)
  N: sessionFact({ sessionId: N, durationSeconds: 800, at: at('2026-10-15T11:55:00Z') }),
  // no view of anybody's property object, ever
  Z: sessionFact({ sessionId: Z, durationSeconds: 1600, at: T }),
}
const viewOfB = id()

/** Every pseudonymous id of a person the store holds: none may appear in a response. */
const personIds = (): string[] =>
  Object.values(sessions).flatMap((f) => {
    const row = f.row as { sessionId: string; anonymousId: string; userId: string | null }
    return [row.sessionId, row.anonymousId, ...(row.userId ? [row.userId] : [])]
  })

describe('read API over HTTP on the ClickHouse server (holdout scenario, tokens, parameters, OpenAPI)', () => {
  let session: ClickHouseSession
  let app: FastifyInstance
  let base = ''
  let validate: (r: SeenResponse) => void
  const seen: SeenResponse[] = []

  const get = async (path: string, token?: string): Promise<SeenResponse & { headers: Headers }> => {
    const r = await fetch(`${base}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
    const response = { path, status: r.status, contentType: r.headers.get('content-type') ?? '', body: await r.json(), headers: r.headers }
    seen.push(response)
    return response
  }
  const tokenFor = (developerId: string, o: Parameters<typeof signToken>[2] = {}) =>
    signToken({ developer_id: developerId }, secretBytes(), { issuer: ISSUER, audience: AUDIENCE, ...o })
  const count = async (table: string) => Number((await session.select<{ n: string }>(sql`SELECT count() AS n FROM ${ident(database)}.${ident(table)}`))[0]?.n)

  beforeAll(async () => {
    session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database })
    await resetDatabase(session)
    const store = servingFactStore(session)
    await store.append(Object.values(sessions), T + 5_000)
    await store.append([
      viewFact(p1, A, T),
      viewFact(p1, B, T, false, viewOfB),
      viewFact(p1, B, T, true, viewOfB),
      viewFact(p2, C, T),
      // October: outside the November period
      viewFact(p2, N, at('2026-10-15T12:00:00Z')),
    ], T + 5_000)
    await store.append([
      ...[id(), id(), id()].map((k) => funnelFact('Views', p1, k, T)),
      ...[id(), id()].map((k) => funnelFact('Selections', p1, k, T)),
      funnelFact('Bookings', p1, id(), T),
      ...[id(), id(), id(), id(), id()].map((k) => funnelFact('Views', p2, k, T)),
      upperDimFact('developer', D1, T, 'Acme Homes'),
      upperDimFact('project', p1.projectId, T, 'Riverside'),
    ], T + 5_000)
    // Favorites ingested 10 minutes after the event: its consumer is behind the 5-minute SLA.
    await store.append([funnelFact('Favorites', p1, id(), T)], T + 600_000)
    const readModel = new ClickHouseReadModel(session)
    const read = {
      sessionMetrics: getDeveloperSessionMetrics(readModel),
      conversionFunnel: getConversionFunnel(readModel, storeFreshness(new ClickHouseStageProgressReader(session), (stage) => stage !== 'Leads')),
      funnelScope: getFunnelScope(readModel),
    }
    app = Fastify()
    await app.register(readApiPlugin, { read, verifyToken: createTokenVerifier({ key: { kind: 'secret', secret: secretBytes() }, issuer: ISSUER, audience: AUDIENCE }) })
    await app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const doc = await fetch(`${base}/v1/openapi.json`)
    expect(doc.status).toBe(200)
    validate = openApiValidator(await doc.json())
  })

  afterAll(async () => {
    await app?.close()
    await session?.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
    await session?.close()
  })

  it('holdout: D1 sees sessions A and B, D2 sees C; the session without views is never returned', async () => {
    const d1 = await get('/v1/session-metrics?from=2026-11-01&to=2026-11-30', await tokenFor(D1))
    expect(d1.status).toBe(200)
    expect(d1.body).toEqual({
      developerId: D1, from: '2026-11-01', to: '2026-11-30',
      sessions: 2, guestSessions: 1, userSessions: 1,
      totalDurationSeconds: 300, minDurationSeconds: 100, maxDurationSeconds: 200, avgDurationSeconds: 150,
      views: { views: 2, closedViews: 2, totalViewSeconds: 240 },
    })
    const d2 = await get('/v1/session-metrics?from=2026-11-01&to=2026-11-30', await tokenFor(D2.toUpperCase()))
    expect(d2.body).toMatchObject({ developerId: D2, sessions: 1, guestSessions: 0, userSessions: 1, totalDurationSeconds: 400, minDurationSeconds: 400, maxDurationSeconds: 400 })
    const october = await get('/v1/session-metrics?from=2026-10-01&to=2026-10-31', await tokenFor(D2))
    expect(october.body).toMatchObject({ sessions: 1, totalDurationSeconds: 800 })
    const year = await get('/v1/session-metrics?from=2026-01-01&to=2026-12-31', await tokenFor(D2))
    expect(year.body).toMatchObject({ sessions: 2, totalDurationSeconds: 1200, maxDurationSeconds: 800 })
    const nobody = await get('/v1/session-metrics?from=2026-01-01&to=2026-12-31', await tokenFor(id()))
    expect(nobody.body).toMatchObject({ sessions: 0, totalDurationSeconds: 0, avgDurationSeconds: 0, views: { views: 0, closedViews: 0, totalViewSeconds: 0 } })
  })

  it("the funnel: the actor's stages with counts, conversion, preliminary and no-source marks, and the scope's names", async () => {
    const r = await get(`/v1/conversion-funnel?from=2026-11-10&to=2026-11-10&projectId=${p1.projectId.toUpperCase()}`, await tokenFor(D1))
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      developerId: D1, from: '2026-11-10', to: '2026-11-10',
      scope: [{ level: 'developer', id: D1, name: 'Acme Homes' }, { level: 'project', id: p1.projectId, name: 'Riverside' }],
      stages: [
        { stage: 'Views', count: 3, status: 'live', conversionFromPrevious: null },
        { stage: 'Favorites', count: 1, status: 'preliminary', conversionFromPrevious: 1 / 3 },
        { stage: 'Selections', count: 2, status: 'live', conversionFromPrevious: 2 },
        { stage: 'Leads', count: 0, status: 'no-source', conversionFromPrevious: null },
        { stage: 'Bookings', count: 1, status: 'live', conversionFromPrevious: 0.5 },
        { stage: 'BookingsPaid', count: 0, status: 'live', conversionFromPrevious: 0 },
        { stage: 'Deals', count: 0, status: 'live', conversionFromPrevious: null },
        { stage: 'DealsCompleted', count: 0, status: 'live', conversionFromPrevious: null },
      ],
    })
    const d2 = await get('/v1/conversion-funnel?from=2026-11-01&to=2026-11-30', await tokenFor(D2))
    expect((d2.body as { stages: { stage: string; count: number }[] }).stages.find((s) => s.stage === 'Views')?.count).toBe(5)
  })

  it("nothing in the request widens the actor: another developer's project counts 0, a developer parameter is refused", async () => {
    const foreign = await get(`/v1/conversion-funnel?from=2026-11-01&to=2026-11-30&projectId=${p2.projectId}`, await tokenFor(D1))
    expect(foreign.status).toBe(200)
    expect((foreign.body as { stages: { count: number }[] }).stages.every((s) => s.count === 0)).toBe(true)
    expect((foreign.body as { developerId: string }).developerId).toBe(D1)
    for (const path of [`/v1/session-metrics?from=2026-11-01&to=2026-11-30&developerId=${D2}`, `/v1/conversion-funnel?from=2026-11-01&to=2026-11-30&developer_id=${D2}`]) {
      const r = await get(path, await tokenFor(D1))
      expect(r.status).toBe(400)
      expect((r.body as { errors: unknown[] }).errors).toEqual([{ parameter: expect.stringMatching(/^developer_?[iI]d$/), detail: 'is not a parameter of this route' }])
    }
  })

  it('401 with a Bearer challenge for every bad token, before the parameters are even looked at', async () => {
    const rsa = await keyPair('RS256')
    const cases: [string, string | undefined][] = [
      ['no token', undefined],
      ['bad signature', await signToken({ developer_id: D1 }, secretBytes('a-different-secret-that-is-long-enough'), { issuer: ISSUER, audience: AUDIENCE })],
      ['alg none', unsignedToken({ developer_id: D1, iss: ISSUER, aud: AUDIENCE })],
      ["an algorithm other than the key's", await signToken({ developer_id: D1 }, rsa.privateKey, { alg: 'RS256', issuer: ISSUER, audience: AUDIENCE })],
      ['wrong issuer', await tokenFor(D1, { issuer: 'https://evil.test' })],
      ['wrong audience', await tokenFor(D1, { audience: 'someone-else' })],
      ['expired', await tokenFor(D1, { expiresIn: -120 })],
      ['not yet valid', await tokenFor(D1, { notBefore: 300 })],
      ['missing claim', await signToken({ sub: D1 }, secretBytes(), { issuer: ISSUER, audience: AUDIENCE })],
      ['non-GUID claim', await tokenFor("1' OR '1'='1")],
    ]
    for (const [name, token] of cases) {
      for (const path of ['/v1/session-metrics?from=2026-11-01&to=2026-11-30', '/v1/conversion-funnel?from=not-a-date']) {
        const r = await get(path, token)
        expect(r.status, `${name} on ${path}`).toBe(401)
        expect(r.contentType).toMatch(/^application\/problem\+json/)
        expect(r.headers.get('www-authenticate'), name).toMatch(token === undefined ? /^Bearer realm="dev-stats"$/ : /^Bearer realm="dev-stats", error="invalid_token", error_description="[^"]+"$/)
        expect(r.body).toMatchObject({ type: 'urn:dev-stats:problem:unauthorized', status: 401 })
      }
    }
  })

  it('400 problems for bad parameters, SQL-shaped ones included; the store is untouched', async () => {
    const before = { sessions: await count('session_facts'), views: await count('property_object_view_facts') }
    const token = await tokenFor(D1)
    const q = encodeURIComponent
    const cases: [string, string[]][] = [
      ['/v1/session-metrics', ['from', 'to']],
      ['/v1/session-metrics?from=2026-11-01', ['to']],
      ['/v1/session-metrics?from=2026-11-30&to=2026-11-01', ['to']],
      ['/v1/session-metrics?from=2025-01-01&to=2026-01-02', ['to']],
      ['/v1/session-metrics?from=2026-02-30&to=2026-03-01', ['from']],
      ['/v1/session-metrics?from=2026-11-01&from=2026-11-02&to=2026-11-30', ['from']],
      [`/v1/session-metrics?from=${q("2026-11-01' OR '1'='1")}&to=2026-11-30`, ['from']],
      [`/v1/session-metrics?from=2026-11-01&to=${q('2026-11-30); DROP TABLE session_facts; --')}`, ['to']],
      [`/v1/conversion-funnel?from=2026-11-01&to=2026-11-30&projectId=${q("' OR 1=1 --")}`, ['projectId']],
      [`/v1/conversion-funnel?from=2026-11-01&to=2026-11-30&buildingId=${q(`${p1.buildingId}') UNION SELECT 1 --`)}`, ['buildingId']],
      [`/v1/conversion-funnel?from=2026-11-01&to=2026-11-30&layoutGroupId=urn:uuid:${p1.layoutGroupId}&layoutId=1`, ['layoutGroupId', 'layoutId']],
      ['/v1/conversion-funnel?from=2026-11-01&to=2026-11-30&propertyObjectId=x', ['propertyObjectId']],
    ]
    for (const [path, parameters] of cases) {
      const r = await get(path, token)
      expect(r.status, path).toBe(400)
      expect(r.contentType).toMatch(/^application\/problem\+json/)
      expect(r.body).toMatchObject({ type: 'urn:dev-stats:problem:invalid-parameters', title: 'Invalid query parameters', status: 400 })
      expect((r.body as { errors: { parameter: string }[] }).errors.map((e) => e.parameter).sort(), path).toEqual([...parameters].sort())
      expect(JSON.stringify(r.body)).not.toMatch(/OR|DROP|UNION/)
    }
    expect({ sessions: await count('session_facts'), views: await count('property_object_view_facts') }).toEqual(before)
  })

  it('no response carries PII: no session, anonymous or user id, only the declared fields', async () => {
    const ids = personIds()
    expect(ids.length).toBeGreaterThanOrEqual(11)
    const ok = seen.filter((r) => r.status === 200)
    expect(ok.length).toBeGreaterThan(4)
    for (const r of seen) {
      const text = JSON.stringify(r.body).toLowerCase()
      for (const personId of ids) expect(text, r.path).not.toContain(personId.toLowerCase())
    }
  })

  it('every response seen above matches the served OpenAPI 3.1 document, which documents both routes', async () => {
    const doc = (await get('/v1/openapi.json')).body as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths).sort()).toEqual(['/v1/conversion-funnel', '/v1/session-metrics'])
    const checked = seen.filter((r) => r.path !== '/v1/openapi.json')
    expect(new Set(checked.map((r) => r.status))).toEqual(new Set([200, 400, 401]))
    for (const r of checked) validate(r)
  })
})
