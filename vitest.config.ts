import { defineConfig } from 'vitest/config'

// Unit: no infrastructure at all. Integration: real ClickHouse server, embedded ClickHouse and a
// real Kafka broker, started by the global setups below; a suite never skips itself. Cluster: a
// local two-replica ClickHouse cluster with ZooKeeper (scripts/clickhouse-cluster.sh), run after
// the others (groupOrder) so the two suites never share the 2 cores. After the run, the ten
// slowest files (SlowestFilesReporter).
export default defineConfig({
  test: {
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000, sequence: { groupOrder: 0 } } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/setup/clickhouse.global.ts', 'test/integration/setup/kafka.global.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          globalSetup: ['test/integration/setup/clickhouse.global.ts', 'test/integration/setup/clickhouse-cluster.global.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
