import type { Worker } from 'node:cluster'
import { isAnswer, type Question, type Topic } from './worker-messages.js'

/** Longer than a worker's readiness takes at most (its store ping gives up after 3 s). */
export const ANSWER_WAIT_MS = 4000

/** Asks `topic` of the worker: its answer, or undefined when it gives none in time (starting, dying, failed to answer). */
export type AskWorker = (topic: Topic) => Promise<unknown>

/** Questions to one worker over its IPC channel: one listener, each answer matched to its question by id. */
export const questionsTo = (worker: Worker, waitMs = ANSWER_WAIT_MS): AskWorker => {
  const pending = new Map<number, (answer?: unknown) => void>()
  worker.on('message', (m: unknown) => {
    if (isAnswer(m)) pending.get(m.id)?.(m.answer)
  })
  worker.once('exit', () => [...pending.values()].forEach((done) => done()))
  let lastId = 0
  return (topic) =>
    new Promise((resolve) => {
      const id = ++lastId
      const done = (answer?: unknown) => {
        clearTimeout(timer)
        pending.delete(id)
        resolve(answer)
      }
      const timer = setTimeout(done, waitMs)
      pending.set(id, done)
      const question: Question = { type: 'dev-stats:question', id, topic }
      // with a callback, a channel closed meanwhile is no answer, not an 'error' event
      if (!worker.isConnected()) done()
      else worker.send(question, (e) => e && done())
    })
}
