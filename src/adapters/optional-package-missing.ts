import { PortError } from '../application/ports/retriable.js'

/** An optional package the configuration chose is not installed: `install` says how to add it. Never retriable. */
export class OptionalPackageMissing extends PortError {
  constructor(name: string, install: string, cause: unknown) {
    super(`${install}\ncause: ${String((cause as Error)?.message ?? cause).split('\n')[0]}`, false, { cause })
    this.name = name
  }
}
