import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files known to run a minute or more (the longest first): started first in their project, so
 * that they overlap the many short files instead of queueing after them. Without a results cache (a
 * fresh clone, CI) vitest would start the largest files first, and most of these are small ones.
 */
export const LONG_TEST_FILES = [
  'test/integration/soak/soak.test.ts',
  'test/integration/kafka/memory-budget-backlog.test.ts',
  'test/cluster/cluster.test.ts',
  'test/integration/clickhouse/serving.property.test.ts',
  'test/integration/clickhouse/day-records.property.test.ts',
  'test/integration/clickhouse/serving-embedded.property.test.ts',
  'test/integration/clickhouse/day-records-embedded.property.test.ts',
  'test/integration/package/cli-package.test.ts',
  'test/integration/kafka/dlq-replay.test.ts',
  'test/integration/kafka/e2e-crash.test.ts',
  'test/integration/ops/service-http.test.ts',
] as const

const rank = (spec: TestSpecification): number => {
  const i = LONG_TEST_FILES.findIndex((f) => spec.moduleId.endsWith(f))
  return i === -1 ? LONG_TEST_FILES.length : i
}

const groupOf = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder ?? 0

/** vitest's order (group, project, then failed and slow first), with the long files in front of the rest of their group (the integration and cluster projects are one). */
export default class LongFilesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const position = new Map(sorted.map((s, i) => [s, i]))
    return [...sorted].sort((a, b) => groupOf(a) - groupOf(b) || rank(a) - rank(b) || (position.get(a) ?? 0) - (position.get(b) ?? 0))
  }
}
