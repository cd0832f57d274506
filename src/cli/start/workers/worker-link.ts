import cluster from 'node:cluster'
import { Registry } from 'prom-client'
import type { DevStatsIngest } from '../../../index.js'
import { isQuestion, WORKER_INDEX, type Answer, type Started, type Topic } from './worker-messages.js'

/** A worker's side of `start --workers N`: what makes its one ingest process one of N. */
export interface WorkerLink {
  /** 1..N, kept across restarts. */
  readonly index: number
  /** The ingest's registry: every series labelled `worker="<index>"`, so that the primary can merge the workers' metrics. */
  readonly registry: Registry
  /** Answers the primary's questions about `ingest` from now on. */
  answerFor(ingest: DevStatsIngest): void
  /** Tells the primary that every consumer joined its group. */
  started(): void
}

// a callback, so that a channel closed meanwhile (the primary gone: the worker exits) throws nothing
const send = (message: Answer | Started): void => void process.send?.(message, undefined, undefined, () => undefined)

const answerOf = async (ingest: DevStatsIngest, topic: Topic): Promise<unknown> =>
  topic === 'readiness' ? ingest.readiness() : ingest.registry.getMetricsAsJSON()

/** This process's link to its primary, when it is a worker of `start --workers N`. */
export const workerLink = (env: NodeJS.ProcessEnv): WorkerLink | undefined => {
  const index = Number(env[WORKER_INDEX])
  if (!cluster.isWorker || !Number.isInteger(index)) return undefined
  const registry = new Registry()
  registry.setDefaultLabels({ worker: String(index) })
  return {
    index,
    registry,
    answerFor: (ingest) =>
      void process.on('message', (m: unknown) => {
        if (!isQuestion(m)) return
        answerOf(ingest, m.topic).then(
          (answer) => send({ type: 'dev-stats:answer', id: m.id, answer }),
          (e: unknown) => send({ type: 'dev-stats:answer', id: m.id, error: String(e) }),
        )
      }),
    started: () => send({ type: 'dev-stats:started' }),
  }
}
