import { PortError } from './retriable.js'

/** A store failure; `code` is the store's own (e.g. `CLICKHOUSE_72`), kept for the dead letter. */
export class StoreError extends PortError {
  constructor(
    message: string,
    retriable: boolean,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, retriable, options)
    this.name = 'StoreError'
  }
}
