import { PortError } from '../../../application/ports/retriable.js'

/** A broker failure that says whether retrying the same operation may succeed. */
export class BrokerError extends PortError {
  constructor(message: string, retriable: boolean, options?: { cause?: unknown }) {
    super(message, retriable, options)
    this.name = 'BrokerError'
  }
}

// Both clients give up with these after their own retries; the condition itself is transient.
const TRANSIENT = /Connection|Timeout|NumberOfRetriesExceeded|NoBrokerAvailable|GroupCoordinatorNotFound|NotLeader|Rebalanc|transport|ECONNREFUSED|ETIMEDOUT/i

export const isRetriable = (e: unknown): boolean => {
  if (!(e instanceof Error)) return TRANSIENT.test(String(e))
  if ('retriable' in e && e.retriable === true) return true
  if (TRANSIENT.test(e.name) || TRANSIENT.test(e.message)) return true
  return e.cause !== undefined && e.cause !== e ? isRetriable(e.cause) : false
}

/** Translates a driver error into a BrokerError naming the operation. */
export const brokerError = (what: string, e: unknown): BrokerError =>
  e instanceof BrokerError ? e : new BrokerError(`${what}: ${e instanceof Error ? e.message : String(e)}`, isRetriable(e), { cause: e })
