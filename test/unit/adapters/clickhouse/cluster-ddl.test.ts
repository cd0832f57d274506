import { describe, expect, it } from 'vitest'
import { readMigrations, DEFAULT_MIGRATIONS_DIR } from '../../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { toClusterForm } from '../../../../src/adapters/clickhouse/cluster-ddl.js'
import type { Migration } from '../../../../src/adapters/clickhouse/migration-file.parser.js'

const one = (...statements: string[]): Migration[] => [{ version: '0009_x', statements }]
const flat = (ms: Migration[]) => ms.flatMap((m) => m.statements).map((s) => s.replace(/\s+/g, ' '))

describe('cluster form of the migrations', () => {
  it('a ReplacingMergeTree table: replicated local table with the same version column and keys, Distributed table by its sharding column', () => {
    const ddl = "CREATE TABLE IF NOT EXISTS db.session_facts\n(\n    SessionId UUID,\n    At DateTime('UTC'),\n    IngestionTime DateTime('UTC')\n)\nENGINE = ReplacingMergeTree(IngestionTime)\nPARTITION BY toYYYYMM(At)\nORDER BY (SessionId, FactId)"
    expect(flat(toClusterForm(one(ddl), 'c1'))).toEqual([
      "CREATE TABLE IF NOT EXISTS db.session_facts_local ON CLUSTER c1 ( SessionId UUID, At DateTime('UTC'), IngestionTime DateTime('UTC') ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/db/session_facts', '{replica}', IngestionTime) PARTITION BY toYYYYMM(At) ORDER BY (SessionId, FactId)",
      'CREATE TABLE IF NOT EXISTS db.session_facts ON CLUSTER c1 AS db.session_facts_local ENGINE = Distributed(c1, db, session_facts_local, cityHash64(SessionId))',
    ])
  })

  it('an engine without arguments, a Null table, a materialized view over the local tables, the database', () => {
    const out = flat(
      toClusterForm(
        one(
          'CREATE DATABASE IF NOT EXISTS db',
          'CREATE TABLE db.agg (K UUID, S AggregateFunction(uniq, UUID)) ENGINE = AggregatingMergeTree ORDER BY K',
          'CREATE TABLE IF NOT EXISTS db.funnel_events (PropertyObjectId UUID) ENGINE = Null',
          'CREATE MATERIALIZED VIEW IF NOT EXISTS db.mv TO db.agg AS SELECT K, uniqState(K) AS S FROM db.funnel_events GROUP BY K',
        ),
        'c1',
      ),
    )
    expect(out).toEqual([
      'CREATE DATABASE IF NOT EXISTS db ON CLUSTER c1',
      "CREATE TABLE db.agg_local ON CLUSTER c1 (K UUID, S AggregateFunction(uniq, UUID)) ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/db/agg', '{replica}') ORDER BY K",
      'CREATE TABLE IF NOT EXISTS db.agg ON CLUSTER c1 AS db.agg_local ENGINE = Distributed(c1, db, agg_local, cityHash64(K))',
      'CREATE TABLE IF NOT EXISTS db.funnel_events_local ON CLUSTER c1 (PropertyObjectId UUID) ENGINE = Null',
      'CREATE TABLE IF NOT EXISTS db.funnel_events ON CLUSTER c1 AS db.funnel_events_local ENGINE = Distributed(c1, db, funnel_events_local, cityHash64(PropertyObjectId))',
      'CREATE MATERIALIZED VIEW IF NOT EXISTS db.mv ON CLUSTER c1 TO db.agg_local AS SELECT K, uniqState(K) AS S FROM db.funnel_events_local GROUP BY K',
    ])
  })

  it('a later ALTER (e.g. a new column): the local tables on the cluster, the Distributed table re-created with the learnt key', () => {
    const migrations = [
      { version: '0002_t', statements: ['CREATE TABLE IF NOT EXISTS db.t (Id UUID) ENGINE = ReplacingMergeTree ORDER BY Id'] },
      { version: '0006_c', statements: ["ALTER TABLE db.t ADD COLUMN Raw String DEFAULT ''"] },
    ]
    expect(toClusterForm(migrations, 'c1')[1]?.statements).toEqual([
      "ALTER TABLE db.t_local ON CLUSTER c1 ADD COLUMN Raw String DEFAULT ''",
      'DROP TABLE IF EXISTS db.t ON CLUSTER c1',
      'CREATE TABLE IF NOT EXISTS db.t ON CLUSTER c1 AS db.t_local ENGINE = Distributed(c1, db, t_local, cityHash64(Id))',
    ])
  })

  it('refuses what it cannot rewrite, naming the statement', () => {
    expect(() => toClusterForm(one('CREATE TABLE db.x (a UInt8) ENGINE = Memory'), 'c1')).toThrow(/engine Memory.*db\.x/)
    expect(() => toClusterForm(one('ALTER TABLE db.unknown ADD COLUMN a UInt8'), 'c1')).toThrow(/db\.unknown/)
    expect(() => toClusterForm(one('OPTIMIZE TABLE db.x'), 'c1')).toThrow(/unknown statement shape/)
    expect(() => toClusterForm(one('CREATE DATABASE db'), 'bad-name')).toThrow(/cluster name/)
  })

  it("the repository's migrations: every table replicated + distributed, keys as docs/clickhouse.md says", async () => {
    const out = flat(toClusterForm(await readMigrations(DEFAULT_MIGRATIONS_DIR, 'pin_dev_stats'), 'c1'))
    const distributed = out.filter((s) => s.includes('Distributed(')).map((s) => /Distributed\(c1, pin_dev_stats, (\w+), (.*)\)$/.exec(s)?.slice(1).join(' '))
    expect(distributed).toEqual(
      expect.arrayContaining([
        'schema_migrations_local cityHash64(Version)',
        'session_facts_local cityHash64(SessionId)',
        'property_object_view_facts_local cityHash64(PropertyObjectViewId)',
        'funnel_daily_local cityHash64(PropertyObjectId)',
        'funnel_events_local cityHash64(PropertyObjectId)',
        'dim_property_object_local cityHash64(Id)',
        'dim_developer_local cityHash64(Id)',
      ]),
    )
    expect(out.every((s) => s.includes('ON CLUSTER c1'))).toBe(true)
    expect(out.filter((s) => / ENGINE = (Replacing|Aggregating)MergeTree/.test(s))).toEqual([])
  })
})
