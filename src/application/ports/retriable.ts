/**
 * The one error contract of the ports: a store or broker adapter throws errors that carry
 * `retriable` — true when the same operation may succeed later (network, server busy), false
 * when it will fail the same way again (a row the server rejects, a bug).
 */
export interface RetriableError extends Error {
  readonly retriable: boolean
}

export const isRetriableError = (e: unknown): e is RetriableError =>
  e instanceof Error && 'retriable' in e && typeof e.retriable === 'boolean'

/** Whether retrying may help; an error outside the contract is treated as transient. */
export const retriable = (e: unknown): boolean => (isRetriableError(e) ? e.retriable : true)
