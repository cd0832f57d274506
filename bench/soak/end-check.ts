import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import { createInterface } from 'node:readline'
import kafkajs from 'kafkajs'
import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
import { FUNNEL_STAGES } from '../../src/domain/funnel.js'
import { compareCounts, compareDeadLetters, compareDims, compareSortedKeys, type CheckRow, type DeadLetter, type DimLatest, type GroupCount } from './checker.js'
import { SEQ_HEADER } from './envelope.js'

// The exact end check: the ledger of every produced record is loaded into the soak's own
// ClickHouse (database soak_check) and compared with what the service stored (pin_dev_stats) and
// dead-lettered (every .dlq topic, read to its end).

const DB = 'pin_dev_stats'
const DIM_TABLES = ['dim_developer', 'dim_project', 'dim_building', 'dim_layout_group', 'dim_layout', 'dim_property_object']

const LEDGER_DDL = `CREATE TABLE soak_check.ledger (
  Seq UInt64, Consumer String, Outcome String, Reason String, MessageId String, Copy UInt8,
  FactTable String, FactKey String, Stage String, BusinessKey String, PropertyObjectId String,
  DeveloperId String, EventDate String, DimTable String, DimId String, Version UInt64, Name String, Late UInt8
) ENGINE = MergeTree ORDER BY Seq`

/**
 * funnel_daily keeps only uniq states, so a short count cannot say which key is missing. The soak
 * therefore taps the rows the service inserts into funnel_events (a Null table) with a second
 * materialized view of its own (the product's tables are untouched): a key missing here was never
 * inserted; a key found here whose group is still short in funnel_daily was lost behind the insert.
 */
const FUNNEL_PROBE_DDL = [
  'CREATE DATABASE IF NOT EXISTS soak_probe',
  `CREATE TABLE IF NOT EXISTS soak_probe.funnel_keys (Stage String, BusinessKey UUID, PropertyObjectId UUID, DeveloperId UUID, EventDate Date)
   ENGINE = MergeTree ORDER BY (Stage, BusinessKey)`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS soak_probe.funnel_keys_mv TO soak_probe.funnel_keys
   AS SELECT Stage, BusinessKey, PropertyObjectId, DeveloperId, EventDate FROM ${DB}.funnel_events`,
]

/** The store side of each fact table: its identity with the fields the ledger's FactKey carries. */
export const FACT_KEY: Readonly<Record<string, string>> = {
  session_facts: `concat(FactId, '/', toString(SessionId))`,
  property_object_view_facts: `concat(FactId, '/', toString(DeveloperId), '/', toString(IsClosed))`,
}

export class EndCheck {
  constructor(
    private readonly clickhouseUrl: string,
    private readonly brokers: string,
  ) {}

  /** Run after the migrations, before any instance starts: see FUNNEL_PROBE_DDL. */
  async installFunnelProbe(): Promise<void> {
    for (const statement of FUNNEL_PROBE_DDL) await this.exec(statement)
  }

  async run(ledgerFile: string): Promise<CheckRow[]> {
    await this.loadLedger(ledgerFile)
    const rows: CheckRow[] = [await this.ledgerSummary()]
    for (const table of Object.keys(FACT_KEY)) rows.push(await this.facts(table))
    rows.push(await this.funnel(), await this.funnelKeys(), await this.dimensions(), await this.deadLetters())
    return rows
  }

  private async loadLedger(file: string): Promise<void> {
    await this.exec('DROP DATABASE IF EXISTS soak_check')
    await this.exec('CREATE DATABASE soak_check')
    await this.exec(LEDGER_DDL)
    const r = await fetch(`${this.clickhouseUrl}/?query=${encodeURIComponent('INSERT INTO soak_check.ledger FORMAT JSONEachRow')}`, {
      method: 'POST',
      body: Readable.toWeb(createReadStream(file)) as ReadableStream,
      duplex: 'half',
    } as RequestInit)
    if (!r.ok) throw new Error(`loading the ledger: ${r.status} ${await r.text()}`)
  }

  private async ledgerSummary(): Promise<CheckRow> {
    const [s] = await this.json<{ records: string; deliveries: string; poison: string; gaps: string; skips: string; late: string }>(`
      SELECT uniqExact(Seq) AS records, count() AS deliveries, uniqExactIf(Seq, Outcome = 'poison') AS poison,
             uniqExactIf(Seq, Outcome = 'gap') AS gaps, uniqExactIf(Seq, Outcome = 'skip') AS skips, uniqExactIf(Seq, Late = 1) AS late
      FROM soak_check.ledger`)
    const n = (x: string | undefined) => Number(x ?? 0)
    return {
      check: 'ledger: records produced', expected: n(s?.records), found: n(s?.deliveries), missing: 0, extra: 0, wrong: 0, samples: [], details: [], pass: n(s?.records) > 0,
      note: `${n(s?.deliveries) - n(s?.records)} repeated deliveries; ${n(s?.poison)} poison, ${n(s?.gaps)} never-arriving dimension, ${n(s?.late)} late dimension, ${n(s?.skips)} skipped by rule`,
    }
  }

  private async facts(table: string): Promise<CheckRow> {
    const expected = this.lines(`SELECT DISTINCT FactKey FROM soak_check.ledger WHERE Outcome = 'row' AND FactTable = '${table}' ORDER BY FactKey FORMAT TabSeparated`)
    const found = this.lines(`SELECT DISTINCT ${FACT_KEY[table]} AS k FROM ${DB}.${table} ORDER BY k FORMAT TabSeparated`)
    const [p] = await this.json<{ rows: string }>(`SELECT count() AS rows FROM ${DB}.${table}`)
    const row = await compareSortedKeys(`${table}: every fact once by FactId`, expected, found)
    return { ...row, note: `${Number(p?.rows ?? 0) - row.found} physical duplicates (collapse by FactId)` }
  }

  private async funnel(): Promise<CheckRow> {
    const expected = await this.json<{ g: string; n: string }>(`
      SELECT concat(PropertyObjectId, '/', DeveloperId, '/', EventDate, '/', Stage) AS g, uniq(toUUID(BusinessKey)) AS n
      FROM soak_check.ledger WHERE Outcome = 'row' AND Stage != '' GROUP BY g`)
    const stages = FUNNEL_STAGES.map((s) => `uniqMerge(${s}) AS ${s}`).join(', ')
    const stored = await this.json<Record<string, string>>(`
      SELECT concat(toString(PropertyObjectId), '/', toString(DeveloperId), '/', toString(EventDate)) AS g, ${stages}
      FROM ${DB}.funnel_daily GROUP BY PropertyObjectId, DeveloperId, EventDate`)
    const found: GroupCount[] = stored.flatMap((r) => FUNNEL_STAGES.map((s) => ({ group: `${r['g']}/${s}`, count: Number(r[s] ?? 0) })))
    return compareCounts('funnel_daily: uniq per object, day and stage', expected.map((e) => ({ group: e.g, count: Number(e.n) })), found,
      'expected counts computed by ClickHouse uniq over the ledger\'s business keys')
  }

  /** Every expected stage key among the rows inserted into funnel_events (the probe), by key. */
  private async funnelKeys(): Promise<CheckRow> {
    const expected = this.lines(`SELECT DISTINCT concat(Stage, '/', BusinessKey) AS k FROM soak_check.ledger
      WHERE Outcome = 'row' AND Stage != '' ORDER BY k FORMAT TabSeparated`)
    const found = this.lines(`SELECT DISTINCT concat(Stage, '/', toString(BusinessKey)) AS k FROM soak_probe.funnel_keys ORDER BY k FORMAT TabSeparated`)
    const row = await compareSortedKeys('funnel_events: every stage key inserted (the soak\'s probe)', expected, found)
    if (row.missing === 0) return row
    // Which records the missing keys came from: topic, whether their dimension was late, repeats.
    const missing = row.details.filter((s) => s.startsWith('missing ')).slice(0, 2000).map((s) => s.slice('missing '.length))
    const records = await this.json<Record<string, string>>(`
      SELECT Stage, BusinessKey, Seq, Consumer, Late, Copy, PropertyObjectId, EventDate FROM soak_check.ledger
      WHERE Outcome = 'row' AND concat(Stage, '/', BusinessKey) IN (${missing.map((k) => `'${k.replace(/'/g, '')}'`).join(', ')}) ORDER BY Seq`)
    return { ...row, details: [...row.details, ...records.map((r) => JSON.stringify(r))] }
  }

  private async dimensions(): Promise<CheckRow> {
    const expected = await this.json<{ t: string; id: string; name: string; v: string }>(`
      SELECT DimTable AS t, DimId AS id, argMax(Name, Version) AS name, max(Version) AS v
      FROM soak_check.ledger WHERE Outcome = 'row' AND DimTable != '' GROUP BY DimTable, DimId`)
    const found: DimLatest[] = []
    for (const t of DIM_TABLES) {
      const rows = await this.json<{ id: string; name: string; v: string }>(`
        SELECT toString(Id) AS id, ifNull(argMax(Name, Version), '') AS name, max(Version) AS v FROM ${DB}.${t} GROUP BY Id`)
      found.push(...rows.map((r) => ({ table: t, id: r.id, name: r.name, version: Number(r.v) })))
    }
    return compareDims('dimensions: latest version per id (argMax)', expected.map((e) => ({ table: e.t, id: e.id, name: e.name, version: Number(e.v) })), found)
  }

  private async deadLetters(): Promise<CheckRow> {
    const expected = await this.json<{ Seq: string; Reason: string; Consumer: string }>(`
      SELECT DISTINCT Seq, Reason, Consumer FROM soak_check.ledger WHERE Outcome IN ('poison', 'gap')`)
    const found = await this.readDeadLetters()
    return compareDeadLetters('.dlq: poison with its reason, dimension-gap, nothing else',
      expected.map((e) => ({ seq: Number(e.Seq), reason: e.Reason, consumer: e.Consumer })), found)
  }

  /** Every record of every .dlq topic, read to the end offsets with a throwaway group. */
  private async readDeadLetters(): Promise<DeadLetter[]> {
    const kafka = new kafkajs.Kafka({ clientId: 'dev-stats-soak-check', brokers: [this.brokers], logLevel: kafkajs.logLevel.NOTHING })
    const admin = kafka.admin()
    await admin.connect()
    const consumerOf = new Map(CONSUMERS.map((c) => [`${c.topic}.dlq`, c.key]))
    const ends = new Map<string, bigint>()
    let total = 0n
    for (const topic of consumerOf.keys()) {
      for (const o of await admin.fetchTopicOffsets(topic)) {
        ends.set(`${topic}/${o.partition}`, BigInt(o.high))
        total += BigInt(o.high) - BigInt(o.low)
      }
    }
    await admin.disconnect()
    const found: DeadLetter[] = []
    if (total === 0n) return found
    const consumer = kafka.consumer({ groupId: `dev-stats-soak-check-${Date.now()}`, maxWaitTimeInMs: 200 })
    await consumer.connect()
    await consumer.subscribe({ topics: [...consumerOf.keys()], fromBeginning: true })
    const read = new Map<string, bigint>()
    let done: () => void = () => undefined
    const finished = new Promise<void>((r) => (done = r))
    let unknown = 0
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const seqHeader = message.headers?.[SEQ_HEADER]?.toString()
        const reason = message.headers?.['dlq-reason']?.toString() ?? ''
        found.push({ seq: seqHeader === undefined ? -++unknown : Number(seqHeader), reason, consumer: consumerOf.get(topic) ?? topic })
        read.set(`${topic}/${partition}`, BigInt(message.offset) + 1n)
        if ([...ends].every(([k, end]) => (read.get(k) ?? 0n) >= end || end === 0n)) done()
      },
    })
    const timeout = new Promise<void>((_, reject) => setTimeout(() => reject(new Error('reading the .dlq topics timed out')), 120_000))
    try {
      await Promise.race([finished, timeout])
    } finally {
      await consumer.disconnect()
    }
    return found
  }

  private async exec(query: string): Promise<void> {
    const r = await fetch(`${this.clickhouseUrl}/`, { method: 'POST', body: query })
    if (!r.ok) throw new Error(`${query.slice(0, 80)}: ${r.status} ${await r.text()}`)
  }

  private async json<T>(query: string): Promise<T[]> {
    const r = await fetch(`${this.clickhouseUrl}/`, { method: 'POST', body: `${query} FORMAT JSONEachRow` })
    const text = await r.text()
    if (!r.ok) throw new Error(`${query.slice(0, 120)}: ${r.status} ${text}`)
    return text.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as T)
  }

  /** A query's result streamed line by line (TabSeparated), for the fact keys. */
  private async *lines(query: string): AsyncGenerator<string> {
    const r = await fetch(`${this.clickhouseUrl}/`, { method: 'POST', body: query })
    if (!r.ok || !r.body) throw new Error(`${query.slice(0, 120)}: ${r.status} ${await r.text()}`)
    for await (const line of createInterface({ input: Readable.fromWeb(r.body as never), crlfDelay: Infinity })) if (line.length > 0) yield line
  }
}
