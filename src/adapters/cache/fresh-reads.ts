/**
 * Wraps a read so that every caller gets the result of a call that started after its own call,
 * with at most one call in flight: callers arriving while one runs share the next one. Under
 * load this costs one call per round trip, not one per caller.
 */
export const freshReads = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  let running: Promise<T> | undefined
  let next: Promise<T> | undefined
  const start = (): Promise<T> => {
    const call = read().finally(() => {
      if (running === call) running = undefined
    })
    running = call
    return call
  }
  return () => {
    if (!running) return start()
    next ??= running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      next = undefined
      return start()
    })
    return next
  }
}
