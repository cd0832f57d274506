/**
 * Spec §7: the open fact (action-tracked) and the closed fact (property-object-view-ended) of one
 * view are one view on read. The row that represents a view is the greatest by
 * (IsClosed, IngestionTime, FactId): a closed row always beats an open one, even an open one
 * ingested later (a late action-tracked must not reopen a finished view); among rows of the same
 * kind the later IngestionTime wins. IngestionTime is a DateTime (whole seconds, 18.16 has no
 * DateTime64), so equal seconds are common: FactId decides them, the same way on every store
 * (a redelivered row has the same FactId and the same content, so its tie is harmless).
 * The ClickHouse read model writes this as argMax(…, tuple(IsClosed, IngestionTime, FactId)).
 */
export interface ViewRowRank {
  readonly isClosed: boolean
  /** IngestionTime as stored: whole epoch seconds. */
  readonly ingestionSecond: number
  readonly factId: string
}

/** Negative when `a` loses to `b`, positive when it wins, 0 for the same rank. */
export const compareViewRank = (a: ViewRowRank, b: ViewRowRank): number =>
  Number(a.isClosed) - Number(b.isClosed) ||
  a.ingestionSecond - b.ingestionSecond ||
  (a.factId < b.factId ? -1 : a.factId > b.factId ? 1 : 0)

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
