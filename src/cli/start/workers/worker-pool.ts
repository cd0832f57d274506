import cluster, { type Worker } from 'node:cluster'
import { AggregatorRegistry } from 'prom-client'
import type { Readiness } from '../../../application/ops/readiness.js'
import type { Logger } from '../../../application/ports/logger.port.js'
import { ANSWER_WAIT_MS, questionsTo, type AskWorker } from './ask-worker.js'
import { restartAttempt, restartDelayMs } from './restart-delay.js'
import { isLagRead, isStarted, WORKER_INDEX, type LagRead } from './worker-messages.js'
import { workersReadiness } from './workers-readiness.js'

/** Past a worker's own stop deadline, how long the primary waits before it kills the worker. */
const STOP_GRACE_MS = 10_000

export interface WorkerPool {
  /** Ready when every worker is: each asked now. */
  readiness(): Promise<Readiness>
  /** Every worker's metrics in one exposition text, each series labelled `worker` (a worker that does not answer in time is left out). */
  metrics(): Promise<string>
  /** SIGTERM to every worker; resolves once all have exited: true when each exited 0. Restarts no more. */
  stop(): Promise<boolean>
}

export interface WorkerPoolOptions {
  readonly count: number
  /** The workers' environment: the primary's; no HTTP server of their own. */
  readonly env: NodeJS.ProcessEnv
  readonly logger: Logger
  /** The workers' DEV_STATS_STOP_TIMEOUT_SECONDS. */
  readonly stopSeconds: number
  /** A worker failed in a way a restart does not mend (exit 2, or 1 at its slot's first start, before consuming): its exit code. Restarts no more. */
  readonly failed: (code: number) => void
}

interface Exit {
  readonly code: number | null
  readonly signal: string | null
}

/** One place of the pool: the worker in it now, restarted when it dies. */
interface Slot {
  readonly index: number
  worker?: Worker
  ask?: AskWorker
  exited?: Promise<Exit>
  consuming: boolean
  forkedAt: number
  /** Workers forked into this slot so far: 1 while it is the slot's first. */
  forks: number
  /** Restarts in a row while it keeps dying quickly. */
  restarts?: number
  restart?: NodeJS.Timeout
}

/** Forks `count` workers (`dev-stats-ingest start` again, in cluster workers) and keeps them running. */
export const startWorkerPool = (o: WorkerPoolOptions): WorkerPool => {
  const slots: Slot[] = Array.from({ length: o.count }, (_, i) => ({ index: i + 1, consuming: false, forkedAt: 0, forks: 0 }))
  let restarting = true
  let stopped: Promise<boolean> | undefined

  const fork = (slot: Slot): void => {
    const worker = cluster.fork({ ...o.env, DEV_STATS_HTTP_PORT: '0', [WORKER_INDEX]: String(slot.index) })
    slot.worker = worker
    slot.ask = questionsTo(worker)
    slot.consuming = false
    slot.forkedAt = Date.now()
    slot.forks++
    slot.exited = new Promise((resolve) => worker.once('exit', (code: number | null, signal: string | null) => resolve({ code, signal })))
    void slot.exited.then((exit) => exited(slot, worker, exit))
    worker.on('error', (e: Error) => o.logger.warn({ worker: slot.index, err: String(e) }, 'worker channel failed'))
    worker.on('message', (m: unknown) => {
      if (isLagRead(m)) return passOn(slot, m)
      if (!isStarted(m)) return
      slot.consuming = true
      if (slots.every((s) => s.consuming)) o.logger.info({ workers: o.count }, 'every worker consuming')
    })
    o.logger.info({ worker: slot.index, workerPid: worker.process.pid }, `worker ${slot.index} forked`)
  }

  /** Worker 1's lag read to every other worker running (one restarting gets the next). */
  const passOn = (from: Slot, read: LagRead): void => {
    for (const s of slots) if (s !== from && s.worker?.isConnected()) s.worker.send(read, () => undefined)
  }

  const exited = (slot: Slot, worker: Worker, exit: Exit): void => {
    if (slot.worker === worker) {
      slot.worker = undefined
      slot.ask = undefined
    }
    if (!restarting) return
    const how = exit.signal ?? `code ${exit.code}`
    // exit 2 is a setting; 1 at a slot's first start a server, a migration or a topic missing: all N
    // would fail alike. A restarted worker's failed start is an outage that outlasted its start-up
    // timeout while the others run on: it is restarted with the backoff like any other death.
    if (exit.code === 2 || (exit.code === 1 && !slot.consuming && slot.forks === 1)) {
      restarting = false
      o.logger.error({ worker: slot.index, code: exit.code }, `worker ${slot.index} failed at start-up (${how}): stopping every worker`)
      return o.failed(exit.code)
    }
    slot.restarts = restartAttempt(slot.restarts, Date.now() - slot.forkedAt)
    const delayMs = restartDelayMs(slot.restarts)
    o.logger.warn({ worker: slot.index, workerPid: worker.process.pid, code: exit.code, signal: exit.signal, restartInMs: delayMs }, `worker ${slot.index} exited (${how}): restarting it`)
    slot.restart = setTimeout(() => fork(slot), delayMs)
  }

  const readinessOf = async (slot: Slot): Promise<Readiness> => {
    if (!slot.ask) return { ready: false, reasons: ['not running (restarting)'] }
    const answer = (await slot.ask('readiness')) as Readiness | undefined
    return answer ?? { ready: false, reasons: [`no answer within ${ANSWER_WAIT_MS / 1000} s`] }
  }

  const stop = async (): Promise<boolean> => {
    restarting = false
    for (const s of slots) clearTimeout(s.restart)
    const running = slots.flatMap((s) => (s.worker && s.exited ? [{ worker: s.worker, exited: s.exited }] : []))
    for (const r of running) r.worker.process.kill('SIGTERM')
    // a worker past its own deadline is stuck beyond what its stop path bounds
    const backstop = setTimeout(() => {
      o.logger.error({ seconds: o.stopSeconds }, 'workers still running past their stop deadline: killing them')
      for (const r of running) r.worker.process.kill('SIGKILL')
    }, o.stopSeconds * 1000 + STOP_GRACE_MS)
    const exits = await Promise.all(running.map((r) => r.exited))
    clearTimeout(backstop)
    return exits.every((e) => e.code === 0)
  }

  for (const slot of slots) fork(slot)
  return {
    readiness: async () => workersReadiness(await Promise.all(slots.map(readinessOf))),
    metrics: async () => {
      const answers = await Promise.all(slots.map((s) => s.ask?.('metrics')))
      return AggregatorRegistry.aggregate(answers.filter((a): a is object[] => Array.isArray(a))).metrics()
    },
    stop: () => (stopped ??= stop()),
  }
}
