// What the primary of `start --workers N` and its workers say to each other over the cluster's IPC
// channel: the primary asks a worker for its readiness or its metrics, a worker answers, and tells
// once that it is consuming (a failure before that, at its slot's first start, stops the pool).
// Worker 1 runs the host's periodic passes and sends each of its lag reads, which the primary passes
// on to the other workers.
import type { PartitionLag } from '../../../application/ports/consumer-lag.port.js'

/** The worker's index (1..N) in its environment: its log lines' `worker` field and its metrics' label. */
export const WORKER_INDEX = 'INGEST_WORKER_INDEX'

export type Topic = 'readiness' | 'metrics'

export interface Question {
  readonly type: 'dev-stats:question'
  readonly id: number
  readonly topic: Topic
}

export interface Answer {
  readonly type: 'dev-stats:answer'
  readonly id: number
  /** Undefined when the worker failed to answer (`error` says why). */
  readonly answer?: unknown
  readonly error?: string
}

export interface Started {
  readonly type: 'dev-stats:started'
}

export interface LagRead {
  readonly type: 'dev-stats:lag'
  readonly consumer: string
  readonly lags: readonly PartitionLag[]
  /** When the read started (LagObserver's `readFrom`): the workers share the host's clock. */
  readonly readFrom: number
}

const typed = (m: unknown, type: string): boolean => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type

export const isQuestion = (m: unknown): m is Question => typed(m, 'dev-stats:question')
export const isAnswer = (m: unknown): m is Answer => typed(m, 'dev-stats:answer')
export const isStarted = (m: unknown): m is Started => typed(m, 'dev-stats:started')
export const isLagRead = (m: unknown): m is LagRead => typed(m, 'dev-stats:lag')
