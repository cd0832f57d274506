import type { Worker } from 'node:cluster'
import { isAnswer, type Question, type Topic } from './worker-messages.js'

/** Longer than a worker's readiness takes at most (its store ping gives up after 3 s). */
export const ANSWER_WAIT_MS = 4000

let lastId = 0

/** The worker's answer, or undefined when it gives none in time (starting, dying, failed to answer). */
export const askWorker = (worker: Worker, topic: Topic, waitMs = ANSWER_WAIT_MS): Promise<unknown> =>
  new Promise((resolve) => {
    const id = ++lastId
    const done = (answer?: unknown) => {
      clearTimeout(timer)
      worker.off('message', onMessage)
      worker.off('exit', onExit)
      resolve(answer)
    }
    const onMessage = (m: unknown) => {
      if (isAnswer(m) && m.id === id) done(m.answer)
    }
    const onExit = () => done()
    const timer = setTimeout(done, waitMs)
    worker.on('message', onMessage)
    worker.once('exit', onExit)
    const question: Question = { type: 'dev-stats:question', id, topic }
    // with a callback, a closed channel is an answer of none, not an 'error' event
    if (!worker.isConnected()) done()
    else worker.send(question, undefined, (e) => e && done())
  })
