import cluster from 'node:cluster'
import { Registry } from 'prom-client'
import type { DevStatsIngest, IngestProcess, PeriodicPasses } from '../../../composition/create-dev-stats-ingest.js'
import { isLagRead, isQuestion, WORKER_INDEX, type Answer, type LagRead, type Started, type Topic } from './worker-messages.js'

/** A worker's side of `start --workers N`: what makes its one ingest process one of N. */
export interface WorkerLink {
  /** 1..N, kept across restarts. */
  readonly index: number
  /** The ingest's registry: every series labelled `worker="<index>"`, so that the primary can merge the workers' metrics. */
  readonly registry: Registry
  /** Worker 1 runs the host's periodic passes and sends its lag reads to the primary; the others run none. */
  readonly passes: PeriodicPasses
  /** From now on: answers the primary's questions about `ingest`, and hands it the lag reads the primary passes on. */
  attach(ingest: IngestProcess): void
  /** Tells the primary that every consumer joined its group. */
  started(): void
}

// a callback, so that a channel closed meanwhile (the primary gone: the worker exits) throws nothing
const send = (message: Answer | Started | LagRead): void => void process.send?.(message, undefined, undefined, () => undefined)

const answerOf = async (ingest: DevStatsIngest, topic: Topic): Promise<unknown> =>
  topic === 'readiness' ? ingest.readiness() : ingest.registry.getMetricsAsJSON()

/** This process's link to its primary, when it is a worker of `start --workers N`. */
export const workerLink = (env: NodeJS.ProcessEnv): WorkerLink | undefined => {
  const index = Number(env[WORKER_INDEX])
  if (!cluster.isWorker || !Number.isInteger(index)) return undefined
  const registry = new Registry()
  registry.setDefaultLabels({ worker: String(index) })
  const runner = index === 1
  return {
    index,
    registry,
    passes: {
      here: runner,
      lagReads: runner ? { observed: (consumer, lags, readFrom) => send({ type: 'dev-stats:lag', consumer, lags, readFrom }) } : undefined,
    },
    attach: (ingest) =>
      void process.on('message', (m: unknown) => {
        if (isLagRead(m)) return ingest.lagRead.observed(m.consumer, m.lags, m.readFrom)
        if (!isQuestion(m)) return
        answerOf(ingest, m.topic).then(
          (answer) => send({ type: 'dev-stats:answer', id: m.id, answer }),
          (e: unknown) => send({ type: 'dev-stats:answer', id: m.id, error: String(e) }),
        )
      }),
    started: () => send({ type: 'dev-stats:started' }),
  }
}
