import type { Guid } from '../../domain/guid.js'

/** The groups of tables the read side answers from. */
export type ReadSource = 'views' | 'sessions' | 'funnel' | 'dimensions'

/**
 * What the store holds now, as a token per source that changes with every write to it (an
 * insert, a merge, a mutation, a dropped partition). Equal tokens, equal answers: a read cache
 * may reuse an answer only while its sources' tokens are unchanged. A source with no data may be
 * absent.
 */
export interface DataVersionReader {
  versions(): Promise<ReadonlyMap<ReadSource, string>>
  /**
   * Per developer, the same kind of token for the sources whose rows are keyed by developer
   * ('views', 'sessions', 'funnel'), over that developer's rows only: a write of another
   * developer's rows leaves it unchanged. Optional: without it a read cache uses `versions()`.
   */
  developerVersions?(developerIds: readonly Guid[]): Promise<ReadonlyMap<Guid, ReadonlyMap<ReadSource, string>>>
}
