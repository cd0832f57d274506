import type { LedgerEntry } from './ledger-entry.js'

/**
 * What the read API may answer at most, from the ledger as it is made: per developer, the view
 * facts and the business keys of each funnel stage produced so far (first deliveries that become
 * rows). An answer counts what was stored, which is never more than what was produced; so any
 * count above these is a duplicate or another developer's data.
 */
export class ReadTruth {
  /** Developers in the order their first row was made. */
  readonly developers: string[] = []
  private readonly views = new Map<string, number>()
  private readonly stages = new Map<string, Map<string, number>>()

  observe(e: LedgerEntry): void {
    if (e.Outcome !== 'row' || e.Copy !== 0 || !e.DeveloperId) return
    const dev = e.DeveloperId
    if (!this.views.has(dev)) {
      this.developers.push(dev)
      this.views.set(dev, 0)
      this.stages.set(dev, new Map())
    }
    if (e.FactTable === 'property_object_view_facts') this.views.set(dev, (this.views.get(dev) ?? 0) + 1)
    if (e.Stage) {
      const stages = this.stages.get(dev) as Map<string, number>
      stages.set(e.Stage, (stages.get(e.Stage) ?? 0) + 1)
    }
  }

  /** View facts of the developer (open and closed): bounds views, and sessions (each counted session viewed). */
  viewsOf(developer: string): number {
    return this.views.get(developer) ?? 0
  }

  /** Business keys of a stage; the Views stage by the view facts. */
  stageOf(developer: string, stage: string): number {
    if (stage === 'Views') return this.viewsOf(developer)
    return this.stages.get(developer)?.get(stage) ?? 0
  }

  /** Where an answer exceeds the truth: "field answered > bound" for each. */
  excess(developer: string, route: string, body: unknown): string[] {
    const out: string[] = []
    const over = (what: string, answered: unknown, bound: number) => {
      if (typeof answered !== 'number' || answered > bound) out.push(`${route} ${what} ${String(answered)} > ${bound}`)
    }
    if (route === 'session-metrics') {
      const b = body as { sessions?: unknown; views?: { views?: unknown } }
      over('sessions', b.sessions, this.viewsOf(developer))
      over('views', b.views?.views, this.viewsOf(developer))
    } else {
      const b = body as { stages?: { stage: string; count: unknown }[] }
      if (!Array.isArray(b.stages)) out.push(`${route} without stages`)
      for (const s of b.stages ?? []) over(`stage ${s.stage}`, s.count, this.stageOf(developer, s.stage))
    }
    return out
  }
}
