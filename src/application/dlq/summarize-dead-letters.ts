import type { Broker } from '../ports/broker.port.js'
import { deadLetterOf, deadLetterTopicOf } from './dead-letter.js'
import { planRead, readWindows } from './read-to-end.js'

/** Dead letters of one source topic with one reason. */
export interface DeadLetterCount {
  readonly sourceTopic: string
  readonly reason: string
  readonly count: number
  /** dlq-failed-at of the oldest and the newest, epoch ms (null when no record carries one). */
  readonly oldest: number | null
  readonly newest: number | null
}

/** Reads every dead-letter topic of `sourceTopics` to its end, as a throw-away group that commits nothing. */
export const summarizeDeadLetters =
  (broker: Broker, inspectGroupId: string) =>
  async (sourceTopics: readonly string[]): Promise<DeadLetterCount[]> => {
    const topics = sourceTopics.map(deadLetterTopicOf)
    const counts = new Map<string, DeadLetterCount>()
    await readWindows(broker, inspectGroupId, await planRead(broker, topics), async (records) => {
      for (const r of records) {
        const d = deadLetterOf(r, r.topic.replace(/\.dlq$/, ''))
        const k = `${d.sourceTopic}\u0000${d.reason}`
        const c = counts.get(k) ?? { sourceTopic: d.sourceTopic, reason: d.reason, count: 0, oldest: null, newest: null }
        const t = d.failedAt
        counts.set(k, {
          ...c,
          count: c.count + 1,
          oldest: t === null ? c.oldest : Math.min(t, c.oldest ?? t),
          newest: t === null ? c.newest : Math.max(t, c.newest ?? t),
        })
      }
      return 'more'
    })
    return [...counts.values()].sort((a, b) => a.sourceTopic.localeCompare(b.sourceTopic) || b.count - a.count)
  }
