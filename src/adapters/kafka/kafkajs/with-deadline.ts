import { ConnectionError } from '../../connection-failure.js'

/** Rejects with a `timeout` ConnectionError when `work` takes longer than `ms`. */
export const withDeadline = <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectionError('timeout', `${what}: no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}
