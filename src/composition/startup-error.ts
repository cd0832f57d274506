import { PortError } from '../application/ports/retriable.js'

/** What `start()` could not do; `message` names the setting to check, `cause` is the driver's error. */
export type StartupFailure = 'store-unreachable' | 'schema-outdated' | 'serving-incomplete' | 'broker-unreachable' | 'topics-missing' | 'consume-failed'

/** `start()` failed before consuming: nothing was committed, `stop()` releases what was opened. */
export class StartupError extends PortError {
  /**
   * A server was reached, then the connection was reset, went silent or was cut short (a proxy, a
   * firewall, a restart): not a setting's fault, worth starting again shortly.
   */
  readonly networkFault: boolean

  constructor(readonly failure: StartupFailure, message: string, options: { cause: unknown; retriable: boolean; networkFault?: boolean }) {
    super(message, options.retriable, { cause: options.cause })
    this.name = 'StartupError'
    this.networkFault = options.networkFault ?? false
  }
}
