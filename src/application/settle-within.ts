/**
 * `work`'s outcome, or `late()`'s once `ms` have passed (a `late` that throws rejects). The work
 * goes on; a failure of it after the deadline is ignored. The one bounded wait of the stop path,
 * the read routes, the CLI's stop, the readiness probe and the kafkajs adapter's deadlines.
 */
export const settleWithin = <T, L>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> =>
  new Promise<T | L>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        resolve(late())
      } catch (e) {
        reject(e)
      }
    }, ms)
    work.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    )
  })
