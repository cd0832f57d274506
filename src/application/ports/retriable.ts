/**
 * The one error contract of the ports. Store and broker adapters throw a PortError (StoreError,
 * BrokerError) whose `retriable` says what the engine should do:
 * - true: the operation may succeed later unchanged (network, server busy or down, a missing
 *   table until an operator fixes it): retry the whole batch with backoff, commit nothing.
 * - false: the data itself is refused (a type or parse error) or our own code failed on it:
 *   retrying the same rows fails the same way; the engine isolates and dead-letters them.
 */
export class PortError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'PortError'
  }
}

/** Whether retrying may help; anything outside the contract is treated as transient. */
export const retriable = (e: unknown): boolean => (e instanceof PortError ? e.retriable : true)
