import { settleWithin } from '../../../application/settle-within.js'
import { ConnectionError } from '../../connection-failure.js'

/** Rejects with a `timeout` ConnectionError when `work` takes longer than `ms`. */
export const withDeadline = <T>(work: Promise<T>, ms: number, what: string): Promise<T> =>
  settleWithin(work, ms, (): never => {
    throw new ConnectionError('timeout', `${what}: no answer within ${ms} ms`)
  })
