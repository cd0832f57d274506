import { defineConfig } from 'vitest/config'
import LongFilesFirstSequencer from './test/support/long-files-first-sequencer.js'

/** Integration files run at once: each has its own database, topics and groups, and a server of its own where it stops one. */
const INTEGRATION_WORKERS = Number(process.env.INTEGRATION_WORKERS ?? 4)

// Unit: no infrastructure at all. Integration: real ClickHouse server, embedded ClickHouse and a
// real Kafka broker, started by the global setups below; a suite never skips itself; its files run
// INTEGRATION_WORKERS at once, the long ones started first (LongFilesFirstSequencer). Cluster: a
// local two-replica ClickHouse cluster with ZooKeeper (scripts/clickhouse-cluster.sh), one file
// (its cases one after another: one stops a replica, one stops its fetches) run beside the
// integration files (one group: vitest runs a group's projects with one worker count). After the
// run, the ten slowest files (SlowestFilesReporter).
export default defineConfig({
  test: {
    reporters: ['default', './test/support/slowest-files-reporter.ts'],
    sequence: { sequencer: LongFilesFirstSequencer },
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000, sequence: { groupOrder: 0 } } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/setup/clickhouse.global.ts', 'test/integration/setup/kafka.global.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: INTEGRATION_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          globalSetup: ['test/integration/setup/clickhouse.global.ts', 'test/integration/setup/clickhouse-cluster.global.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: INTEGRATION_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
