import type { Broker } from '../ports/broker.port.js'
import { deadLetterOf, deadLetterTopicOf, matches, originalRecord, type DeadLetterFilter } from './dead-letter.js'
import { planRead, readWindows, recordsIn } from './read-to-end.js'

export interface ReplayRequest {
  readonly sourceTopic: string
  readonly filter: DeadLetterFilter
  /** Count what would be replayed; publish and commit nothing. */
  readonly dryRun: boolean
  /** At most this many records per second (spares the consumers and ClickHouse a flood); none = as fast as the broker takes them. */
  readonly maxPerSecond?: number
}

/** Records published and committed per step: a killed replay re-publishes at most this many. */
export const REPLAY_STEP = 100

export interface ReplayReport {
  readonly groupId: string
  /** Dead letters read in this run (those before the group's commit were done by earlier runs). */
  readonly read: number
  readonly matched: number
  /** Re-published to the source topic (0 in a dry run). */
  readonly replayed: number
}

/** Told as the replay goes; the CLI draws a bar or prints lines. */
export interface ReplayProgress {
  started(sourceTopic: string, total: number): void
  advanced(read: number, matched: number): void
  finished(): void
}

/**
 * The replay's own consumer group, one per source topic and filter: it remembers how far this
 * replay got, so running it again resumes (or finds nothing left) and a different filter starts
 * its own pass.
 */
export const replayGroupOf = (sourceTopic: string, f: DeadLetterFilter): string =>
  [`dev-stats-dlq-replay.${sourceTopic}`, f.reason ?? 'all', ...(f.since ?? f.until ? [`${f.since ?? ''}-${f.until ?? ''}`] : [])].join('.')

/**
 * Re-publishes the matching dead letters of a source topic to it (original key, value and
 * headers, without the dlq-* headers), batch by batch: a batch's offsets are committed only after
 * the broker acknowledged its records, so a killed replay resumes where it was and at most
 * re-publishes one batch, which the consumers collapse (FactId, uniq business keys; spec §10).
 */
export const replayDeadLetters =
  (broker: Broker, progress: ReplayProgress, inspectGroupId: string) =>
  async ({ sourceTopic, filter, dryRun, maxPerSecond }: ReplayRequest): Promise<ReplayReport> => {
    const groupId = replayGroupOf(sourceTopic, filter)
    const windows = await planRead(broker, [deadLetterTopicOf(sourceTopic)], groupId)
    const producer = broker.producer()
    let read = 0
    let matched = 0
    progress.started(sourceTopic, recordsIn(windows))
    // A dry run reads as a throw-away group so the replay's own group is not touched.
    const step = Math.min(REPLAY_STEP, maxPerSecond ?? REPLAY_STEP)
    await readWindows(broker, dryRun ? inspectGroupId : groupId, windows, async (batch, commit) => {
      for (let i = 0; i < batch.length; i += step) {
        const started = Date.now()
        const records = batch.slice(i, i + step)
        const chosen = records.map((r) => deadLetterOf(r, sourceTopic)).filter((d) => matches(d, filter))
        if (!dryRun) {
          await producer.publish(chosen.map(originalRecord))
          const last = records.at(-1)
          if (last) await commit([{ topic: last.topic, partition: last.partition, offset: String(Number(last.offset) + 1) }])
        }
        read += records.length
        matched += chosen.length
        progress.advanced(read, matched)
        if (maxPerSecond !== undefined && !dryRun) await sleep((chosen.length / maxPerSecond) * 1000 - (Date.now() - started))
      }
      return 'more'
    })
    progress.finished()
    return { groupId, read, matched, replayed: dryRun ? 0 : matched }
  }

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve())
