import type { Readiness } from '../../../application/ops/readiness.js'

/** The primary's one readiness: every worker ready; each reason named by its worker (1..N). */
export const workersReadiness = (workers: readonly Readiness[]): Readiness => ({
  ready: workers.every((w) => w.ready),
  reasons: workers.flatMap((w, i) => w.reasons.map((reason) => `worker ${i + 1}: ${reason}`)),
})
