/** A monthly partition (`toYYYYMM(Day)`, e.g. `202601`) of one link table. */
export interface LinkPartition {
  readonly table: string
  readonly partition: string
}

/**
 * The partitions of the serving tables' link tables (migration 0008: view_links,
 * session_view_links, session_links), where the store has partitions (ClickHouse). Failures throw
 * a StoreError.
 */
export interface LinkPartitions {
  list(): Promise<readonly LinkPartition[]>
  /** Drops one partition; dropping one already gone does nothing. */
  drop(partition: LinkPartition): Promise<void>
}
