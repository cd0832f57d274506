import { defineConfig } from 'vitest/config'

// Unit: no infrastructure at all. Integration: real ClickHouse server, embedded ClickHouse and a
// real Kafka broker, started by the global setups below; a suite never skips itself.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/setup/clickhouse.global.ts', 'test/integration/setup/kafka.global.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
