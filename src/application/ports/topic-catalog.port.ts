import { PortError } from './retriable.js'

/** What topics the broker hosts: checked before any consumer joins its group. */
export interface TopicCatalog {
  /** Those of `topics` the broker does not host, in the given order. */
  missing(topics: readonly string[]): Promise<readonly string[]>
}

/** Topics a consumer reads or writes are not on the broker: nothing was started. */
export class MissingTopicsError extends PortError {
  constructor(readonly topics: readonly string[]) {
    super(`${topics.length} topic(s) missing on the broker: ${topics.join(', ')} (create them with \`dev-stats-ingest topics\`)`, false)
    this.name = 'MissingTopicsError'
  }
}
