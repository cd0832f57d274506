/** A broker failure that says whether retrying the same operation may succeed. */
export class BrokerError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'BrokerError'
  }
}

// Both clients give up with these after their own retries; the condition itself is transient.
const TRANSIENT = /Connection|Timeout|NumberOfRetriesExceeded|NoBrokerAvailable|GroupCoordinatorNotFound|NotLeader|Rebalanc|transport|ECONNREFUSED|ETIMEDOUT/i

export const isRetriable = (e: unknown): boolean => {
  const err = e as { retriable?: unknown; name?: unknown; message?: unknown; cause?: unknown }
  if (err?.retriable === true) return true
  if (TRANSIENT.test(String(err?.name ?? '')) || TRANSIENT.test(String(err?.message ?? ''))) return true
  return err?.cause !== undefined && err.cause !== e ? isRetriable(err.cause) : false
}

/** Translates a driver error into a BrokerError naming the operation. */
export const brokerError = (what: string, e: unknown): BrokerError =>
  e instanceof BrokerError ? e : new BrokerError(`${what}: ${String((e as Error)?.message ?? e)}`, isRetriable(e), { cause: e })
