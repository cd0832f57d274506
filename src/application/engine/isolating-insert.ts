import { retriable } from '../ports/retriable.js'

export interface Rejection<U> {
  readonly unit: U
  readonly error: unknown
}

/**
 * Inserts units (a record's rows); when the store refuses the content (a non-retriable error),
 * splits the units in halves and inserts each, until the refused units stand alone. Returns
 * those; everything else is inserted. A retriable error (or Abandoned) propagates: the caller
 * retries the whole batch. A few bad rows in 1,000 cost about 2·log2(1000) inserts each.
 */
export const insertIsolating = async <U>(
  units: readonly U[],
  insert: (units: readonly U[]) => Promise<void>,
): Promise<readonly Rejection<U>[]> => {
  if (units.length === 0) return []
  try {
    await insert(units)
    return []
  } catch (error) {
    if (retriable(error)) throw error
    const [only] = units
    if (units.length === 1 && only !== undefined) return [{ unit: only, error }]
    const mid = Math.ceil(units.length / 2)
    const left = await insertIsolating(units.slice(0, mid), insert)
    const right = await insertIsolating(units.slice(mid), insert)
    return [...left, ...right]
  }
}
