import { afterAll, describe, expect, it } from 'vitest'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import type { Guid } from '../../../src/domain/guid.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { isolatedDeployment, type Deployment } from '../../support/deployment.js'
import { binaryRecord, leadCreatedPayload, path, propertyObjectUpsertedPayload, sessionEndedPayload } from '../../support/events.js'
import { KAFKA_ADAPTERS, kafkaBroker, lagOf, readTopic } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'

// Issue 19 with each Kafka client, as an operator runs it: `npm start` with the lead-created flag
// off while leads and sessions arrive; `npm run replay` refused while the service runs; stopped,
// replayed from before the first record, started with the flag on: each lead counted once, the
// same logical session rows, no dead letter for a record that had none; replayed again: still once.
const LEADS = 20
const SESSIONS = 30
const deployments: Deployment[] = []

afterAll(() => removeRunResources(deployments.flatMap((d) => d.topics), deployments.map((d) => d.database)))

const totalReread = (output: string, group: string): number => {
  const block = output.slice(output.indexOf(`group ${group} `))
  return Number(/(\d+) record\(s\) read again/.exec(block)?.[1])
}

describe.each(KAFKA_ADAPTERS)('npm run replay on the real broker and ClickHouse (%s)', (adapter) => {
  it('seed 003: leads that arrived with the flag off are counted once after a replay, and still once after another; session-ended rows and dead letters unchanged', async () => {
    const d = isolatedDeployment(adapter, 'replay', { DEV_STATS_FUNNEL_ENABLED: 'false' })
    deployments.push(d)
    const leads = { group: d.groupOf('LEAD_CREATED'), topic: d.topicsOf('LEAD_CREATED').source }
    const sessions = { group: d.groupOf('SESSION_ENDED'), topic: d.topicsOf('SESSION_ENDED').source, dlq: d.topicsOf('SESSION_ENDED').deadLetter }
    expect(npmRun(['migrate'], d.env).code).toBe(0)
    expect(npmRun(['topics'], d.env).code).toBe(0)
    const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: d.database })
    const readModel = new ClickHouseReadModel(session)
    const broker = kafkaBroker(adapter)
    const p = path()
    const leadsCounted = async () => (await readModel.funnelCounts(p.DeveloperId as Guid, { fromDate: '2026-11-30', toDate: '2026-11-30' }, {})).Leads
    const logicalSessions = () => session.select<Record<string, unknown>>(sql`
      SELECT SessionId, argMax(FactId, IngestionTime) AS FactId, argMax(SourceEventId, IngestionTime) AS SourceEventId,
             argMax(UserId, IngestionTime) AS UserId, argMax(ViewerKind, IngestionTime) AS ViewerKind,
             argMax(StartedAt, IngestionTime) AS StartedAt, argMax(DurationSeconds, IngestionTime) AS DurationSeconds
      FROM ${ident(d.database)}.session_facts GROUP BY SessionId ORDER BY SessionId`)
    const deadLetters = async (count: number) =>
      (await readTopic(broker, sessions.dlq, count)).map((r) => `${r.headers['dlq-source-partition']}/${r.headers['dlq-source-offset']}/${r.headers['dlq-reason']}`)
    const replay = (...args: string[]) => npmRun(['replay', '--', ...args], d.env)
    const caughtUp = async (...groups: { group: string; topic: string }[]) => {
      for (const g of groups) if ((await lagOf(g.group, g.topic)) !== 0) return false
      return true
    }

    // 1. the flag off: sessions are ingested, leads wait on their topic
    let service = new NpmStart(d.env)
    try {
      await eventuallyAsync(() => service.logLine(/^consuming from/) !== undefined, 90_000, `npm start consuming:\n${service.output}`)
      await broker.producer().publish([binaryRecord(d.topicsOf('PROPERTY_OBJECT_UPSERTED').source, propertyObjectUpsertedPayload(p))])
      await eventuallyAsync(() => caughtUp({ group: d.groupOf('PROPERTY_OBJECT_UPSERTED'), topic: d.topicsOf('PROPERTY_OBJECT_UPSERTED').source }), 60_000, 'the dimension')
      const before = new Date(Date.now() - 1000).toISOString()
      await broker.producer().publish([
        ...Array.from({ length: SESSIONS }, () => binaryRecord(sessions.topic, sessionEndedPayload())),
        binaryRecord(sessions.topic, 'not json'),
        ...Array.from({ length: LEADS }, () => binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: p.PropertyObjectId }))),
      ])
      await eventuallyAsync(() => caughtUp(sessions), 60_000, 'sessions ingested')
      expect(await lagOf(leads.group, leads.topic)).toBe(LEADS)
      expect(await leadsCounted()).toBe(0)

      // while the service runs: a dry run plans, a real run is refused naming the member
      const dry = replay('--consumer', 'SESSION_ENDED', '--from', before, '--dry-run')
      expect(dry.code, dry.output).toBe(0)
      expect(totalReread(dry.stdout, sessions.group)).toBe(SESSIONS + 1)
      expect(dry.stdout).toContain('dry run: nothing changed')
      const refused = replay('--consumer', 'SESSION_ENDED,LEAD_CREATED', '--from', before)
      expect(refused.code, refused.output).toBe(1)
      expect(refused.stderr).toMatch(new RegExp(`refused: group ${sessions.group.replace(/\./g, '\\.')} \\(SESSION_ENDED\\) has 1 active member\\(s\\): dev-stats-ingest at \\S*127\\.0\\.0\\.1`))
      expect(refused.stderr).not.toContain(leads.group)
      expect(refused.stderr).toContain('Nothing was changed.')
      expect(await lagOf(sessions.group, sessions.topic)).toBe(0)
      await service.stop()

      const rowsBefore = await logicalSessions()
      expect(rowsBefore).toHaveLength(SESSIONS)
      const lettersBefore = await deadLetters(1)
      expect(lettersBefore).toHaveLength(1)

      // 2. stopped: replay both from before the first record, then the flag on
      const moved = replay('--consumer', 'LEAD_CREATED,SESSION_ENDED', '--from', before)
      expect(moved.code, moved.output).toBe(0)
      expect(totalReread(moved.stdout, sessions.group)).toBe(SESSIONS + 1)
      expect(await lagOf(sessions.group, sessions.topic)).toBe(SESSIONS + 1)
      expect(await lagOf(leads.group, leads.topic)).toBe(LEADS)
      service = new NpmStart({ ...d.env, DEV_STATS_FUNNEL_ENABLED: 'true' })
      await eventuallyAsync(() => caughtUp(sessions, leads), 90_000, `replayed records consumed:\n${service.output.slice(-2000)}`)
      expect(await leadsCounted()).toBe(LEADS)
      expect(await logicalSessions()).toEqual(rowsBefore)
      // the poison is dead-lettered again: a copy of the same source record, nothing new
      const lettersAfter = await deadLetters(2)
      expect(lettersAfter).toHaveLength(2)
      expect(new Set(lettersAfter)).toEqual(new Set(lettersBefore))
      await service.stop()

      // 3. once more: every lead read again, still counted once
      const again = replay('--consumer', 'LEAD_CREATED', '--from', before)
      expect(again.code, again.output).toBe(0)
      expect(totalReread(again.stdout, leads.group)).toBe(LEADS)
      service = new NpmStart({ ...d.env, DEV_STATS_FUNNEL_ENABLED: 'true' })
      await eventuallyAsync(() => caughtUp(leads), 90_000, `leads read again:\n${service.output.slice(-2000)}`)
      expect(await leadsCounted()).toBe(LEADS)
    } finally {
      await service.stop()
      await broker.close()
      await session.close()
    }
  }, 360_000)
})
