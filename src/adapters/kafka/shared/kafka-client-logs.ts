import type { LogEntry } from 'kafkajs'
import type { LogFields, Logger } from '../../../application/ports/logger.port.js'

type Level = 'error' | 'warn' | 'info' | 'debug'

// Errors kafkajs logs on every rebalance or broker start; it retries them itself.
const ROUTINE = /rebalanc|coordinator is loading|not the correct coordinator|not aware of this topic/i

// kafkajs levels: NOTHING 0, ERROR 1, WARN 2, INFO 4, DEBUG 5.
const kafkaJsLevel = (level: number): Level => (level <= 1 ? 'error' : level === 2 ? 'warn' : level === 4 ? 'info' : 'debug')

/** kafkajs's logCreator: its lines become our structured lines at their own level (routine chatter dropped). */
export const kafkaJsLogCreator = (logger: Logger | undefined) => () => (entry: LogEntry) => {
  const { message, error, ...fields } = entry.log
  if (!logger || ROUTINE.test(`${String(error ?? '')} ${message}`)) return
  const level = kafkaJsLevel(entry.level)
  logger[level]({ client: 'kafkajs', namespace: entry.namespace, error: String(error ?? ''), broker: String(fields['broker'] ?? '') }, message)
}

/** The logger shape @confluentinc/kafka-javascript's KafkaJS API accepts (`kafkaJS.logger`). */
export interface ConfluentLogger {
  info(message: string, extra?: object): void
  error(message: string, extra?: object): void
  warn(message: string, extra?: object): void
  debug(message: string, extra?: object): void
  namespace(namespace: string, logLevel?: number): ConfluentLogger
  setLogLevel(logLevel: number): void
}

// The client's levels: NOTHING 0, ERROR 1, WARN 2, INFO 3, DEBUG 4.
const CONFLUENT_RANK: Record<Level, number> = { error: 1, warn: 2, info: 3, debug: 4 }

/**
 * librdkafka's own lines (its `event.log`: fac, name) and the client's, as our structured lines,
 * instead of the client's default logger that prints plain objects with console.*.
 */
export const confluentLogger = (logger: Logger | undefined, initialLevel = 1): ConfluentLogger => {
  let max = initialLevel
  const at = (level: Level) => (message: string, extra?: object) => {
    if (!logger || CONFLUENT_RANK[level] > max) return
    const { fac, name } = (extra ?? {}) as { fac?: unknown; name?: unknown }
    const fields: LogFields = { client: 'librdkafka', ...(fac === undefined ? {} : { fac: String(fac) }), ...(name === undefined ? {} : { instance: String(name) }) }
    logger[level](fields, message)
  }
  const self: ConfluentLogger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    namespace: () => self,
    setLogLevel: (level) => void (max = level),
  }
  return self
}
