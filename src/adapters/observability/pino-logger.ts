import { pino, type Logger as Pino } from 'pino'
import type { LogFields, Logger } from '../../application/ports/logger.port.js'

/** Structured JSON logs on stdout (or wherever the host's pino destination points). */
export class PinoLogger implements Logger {
  constructor(private readonly log: Pino = pino({ name: 'dev-stats-ingest' })) {}

  static withLevel(level: string): PinoLogger {
    return new PinoLogger(pino({ name: 'dev-stats-ingest', level }))
  }

  debug(fields: LogFields, message: string): void {
    this.log.debug(fields, message)
  }
  info(fields: LogFields, message: string): void {
    this.log.info(fields, message)
  }
  warn(fields: LogFields, message: string): void {
    this.log.warn(fields, message)
  }
  error(fields: LogFields, message: string): void {
    this.log.error(fields, message)
  }
}
