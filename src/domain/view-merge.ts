/**
 * Spec §7: the open fact (action-tracked) and the closed fact (property-object-view-ended) of one
 * view are one view on read. The row that represents a view is the greatest by
 * (IsClosed, IngestionTime, FactId): a closed row always beats an open one, even an open one
 * ingested later (a late action-tracked must not reopen a finished view); among rows of the same
 * kind the later IngestionTime wins. IngestionTime is a DateTime (whole seconds, 18.16 has no
 * DateTime64), so equal seconds are common: FactId decides them, the same way on every store.
 * A redelivered event is enriched again, so it may carry another developer than its first row
 * (its property object moved meanwhile) within the same second: DeveloperId decides last, so the
 * rank is total and no store's answer depends on the order it reads rows in.
 * The ClickHouse read model writes this as argMax(…, tuple(IsClosed, IngestionTime, FactId, DeveloperId)).
 */
export interface ViewRowRank {
  readonly isClosed: boolean
  /** IngestionTime as stored: whole epoch seconds. */
  readonly ingestionSecond: number
  readonly factId: string
  readonly developerId: string
}

/** Negative when `a` loses to `b`, positive when it wins, 0 for the same rank. */
export const compareViewRank = (a: ViewRowRank, b: ViewRowRank): number =>
  Number(a.isClosed) - Number(b.isClosed) ||
  a.ingestionSecond - b.ingestionSecond ||
  order(a.factId, b.factId) ||
  order(a.developerId, b.developerId)

const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The winning row of every view, keyed by PropertyObjectViewId. */
export const mergeViews = <R>(rows: Iterable<R>, viewId: (r: R) => string, rank: (r: R) => ViewRowRank): Map<string, R> => {
  const merged = new Map<string, R>()
  for (const r of rows) {
    const id = viewId(r)
    const current = merged.get(id)
    if (current === undefined || compareViewRank(rank(r), rank(current)) > 0) merged.set(id, r)
  }
  return merged
}
