import type { LogFields, Logger } from '../../src/application/ports/logger.port.js'

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly fields: LogFields
}

export class RecordingLogger implements Logger {
  readonly lines: LogLine[] = []
  debug(fields: LogFields, message: string): void {
    this.lines.push({ level: 'debug', message, fields })
  }
  info(fields: LogFields, message: string): void {
    this.lines.push({ level: 'info', message, fields })
  }
  warn(fields: LogFields, message: string): void {
    this.lines.push({ level: 'warn', message, fields })
  }
  error(fields: LogFields, message: string): void {
    this.lines.push({ level: 'error', message, fields })
  }
  at(level: LogLine['level']): LogLine[] {
    return this.lines.filter((l) => l.level === level)
  }
}
