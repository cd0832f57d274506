import { dayOf } from '../../domain/serving-links.js'
import { firstLinkDayKept, partitionsBefore } from '../../domain/serving-window.js'
import type { Clock } from '../ports/clock.port.js'
import type { LinkPartitions } from '../ports/link-partitions.port.js'
import type { Logger } from '../ports/logger.port.js'
import { PeriodicPass } from './periodic-pass.js'

/** Once an hour: the link tables' partitions are whole months, a drop is due at most once a month. */
export const LINK_RETENTION_INTERVAL_MS = 3_600_000

/**
 * Keeps the link tables within the accepted lateness (serving-window.ts), as a TTL would, on
 * every server version (18.16 has no TTL): every interval, the monthly partitions whose every day
 * is older than the window are dropped. The first pass runs one interval after start. Every
 * instance does it (one worker of `start --workers N`); a partition already dropped is not there
 * to drop again. A failed pass is logged and tried again at the next interval.
 */
export class LinkRetention extends PeriodicPass<number> {
  constructor(
    private readonly partitions: LinkPartitions,
    private readonly latenessDays: number,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly dropped: (count: number) => void = () => undefined,
    intervalMs = LINK_RETENTION_INTERVAL_MS,
  ) {
    super(intervalMs)
  }

  /** The partitions dropped. */
  protected async runPass(): Promise<number> {
    const firstKept = firstLinkDayKept(dayOf(this.clock.now()), this.latenessDays)
    let count = 0
    try {
      const all = await this.partitions.list()
      for (const table of new Set(all.map((p) => p.table))) {
        const old = partitionsBefore(all.filter((p) => p.table === table).map((p) => p.partition), firstKept)
        for (const partition of old) {
          await this.partitions.drop({ table, partition })
          count++
          this.dropped(1)
          this.logger.info({ table, partition, latenessDays: this.latenessDays }, 'link partition older than the accepted lateness dropped')
        }
      }
    } catch (e) {
      this.logger.warn({ err: e instanceof Error ? e.message : String(e), dropped: count }, 'link retention pass failed; tried again at the next interval')
      throw e
    }
    return count
  }
}
