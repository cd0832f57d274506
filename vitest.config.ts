import { defineConfig } from 'vitest/config'

// Unit: no infrastructure at all. Integration suites (real Kafka / ClickHouse) live in their own
// project and require their services; they never skip themselves.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000 } },
    ],
  },
})
