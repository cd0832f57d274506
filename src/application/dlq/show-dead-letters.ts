import type { Broker } from '../ports/broker.port.js'
import { deadLetterOf, deadLetterTopicOf, matches, type DeadLetter, type DeadLetterFilter } from './dead-letter.js'
import { planRead, readWindows } from './read-to-end.js'

/** The first `limit` dead letters of a source topic that pass the filter, oldest offsets first per partition. */
export const showDeadLetters =
  (broker: Broker, inspectGroupId: string) =>
  async (sourceTopic: string, filter: DeadLetterFilter, limit: number): Promise<DeadLetter[]> => {
    const found: DeadLetter[] = []
    const windows = await planRead(broker, [deadLetterTopicOf(sourceTopic)])
    await readWindows(broker, inspectGroupId, windows, async (records) => {
      for (const r of records) {
        const d = deadLetterOf(r, sourceTopic)
        if (matches(d, filter) && found.length < limit) found.push(d)
      }
      return found.length >= limit ? 'enough' : 'more'
    })
    return found
  }
