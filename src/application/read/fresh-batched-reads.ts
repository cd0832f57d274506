/**
 * freshReads for a read that takes many keys at once: every caller gets the result of a call
 * that started after its own call, with at most one call in flight; callers arriving while one
 * runs are gathered into the next, which asks for all of their keys together. Under load this
 * costs one call per round trip, however many keys are asked. `onIdle` is called when a call
 * settles with nobody waiting for the next.
 */
export const freshBatchedReads = <K, V>(readMany: (keys: ReadonlySet<K>) => Promise<ReadonlyMap<K, V>>, onIdle?: () => void): ((key: K) => Promise<V | undefined>) => {
  let running: Promise<unknown> | undefined
  let next: { readonly keys: Set<K>; readonly result: Promise<ReadonlyMap<K, V>> } | undefined
  const start = (keys: ReadonlySet<K>): Promise<ReadonlyMap<K, V>> => {
    const call = readMany(keys)
    const settled = call.then(
      () => undefined,
      () => undefined,
    )
    running = settled
    void settled.then(() => {
      if (running !== settled) return
      running = undefined
      if (!next) onIdle?.()
    })
    return call
  }
  return async (key) => {
    if (!running) return (await start(new Set([key]))).get(key)
    if (!next) {
      const keys = new Set<K>()
      const result = running.then(() => {
        next = undefined
        return start(keys)
      })
      next = { keys, result }
    }
    next.keys.add(key)
    return (await next.result).get(key)
  }
}
