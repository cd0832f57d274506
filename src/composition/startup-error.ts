import { PortError } from '../application/ports/retriable.js'

/** What `start()` could not do; `message` names the setting to check, `cause` is the driver's error. */
export type StartupFailure = 'store-unreachable' | 'schema-outdated' | 'serving-incomplete' | 'broker-unreachable' | 'topics-missing' | 'consume-failed'

/** `start()` failed before consuming: nothing was committed, `stop()` releases what was opened. */
export class StartupError extends PortError {
  constructor(readonly failure: StartupFailure, message: string, options: { cause: unknown; retriable: boolean }) {
    super(message, options.retriable, { cause: options.cause })
    this.name = 'StartupError'
  }
}
