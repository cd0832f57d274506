/** A store failure, classified by whether retrying the same batch may succeed. */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'StoreError'
  }
}
