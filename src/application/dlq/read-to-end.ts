import type { Broker, BrokerRecord, OffsetCommit } from '../ports/broker.port.js'

/** Offsets [from, to) of one partition to read: from the group's commit (or the earliest held) to the end as it was at the start. */
export interface ReadWindow {
  readonly topic: string
  readonly partition: number
  readonly from: number
  readonly to: number
}

/**
 * Fixes what a read covers before it starts: records that arrive later (e.g. a replayed record
 * dead-lettered again) are left for the next run, so a read always ends.
 */
export const planRead = async (broker: Broker, topics: readonly string[], committedBy?: string): Promise<ReadWindow[]> => {
  const windows: ReadWindow[] = []
  for (const topic of topics) {
    const committed = committedBy === undefined ? new Map<number, string>() : await broker.committedOffsets(committedBy, topic)
    for (const { partition, low, high } of await broker.partitionOffsets(topic)) {
      const from = Math.max(Number(low), Number(committed.get(partition) ?? low))
      windows.push({ topic, partition, from, to: Number(high) })
    }
  }
  return windows
}

export const recordsIn = (windows: readonly ReadWindow[]): number => windows.reduce((n, w) => n + Math.max(0, w.to - w.from), 0)

/** What a reader does with each batch: 'enough' ends the read early (e.g. `show --limit`). */
export type BatchReader = (records: readonly BrokerRecord[], commit: (offsets: readonly OffsetCommit[]) => Promise<void>) => Promise<'more' | 'enough'>

const key = (r: { topic: string; partition: number }) => `${r.topic}/${r.partition}`

/**
 * Reads the windows as member of `groupId` and stops once every partition reached its end. The
 * group commits only what the reader commits. Fails when nothing arrives for `stallMs`.
 */
export const readWindows = async (broker: Broker, groupId: string, windows: readonly ReadWindow[], reader: BatchReader, stallMs = 60_000): Promise<void> => {
  const pending = new Map(windows.filter((w) => w.from < w.to).map((w) => [key(w), w]))
  if (pending.size === 0) return
  const consumer = broker.consumer(groupId)
  let finished = false
  let settle: (e?: unknown) => void = () => undefined
  const done = new Promise<void>((resolve, reject) => {
    settle = (e) => {
      finished = true
      if (e === undefined) resolve()
      else reject(e)
    }
  })
  let lastRecordAt = Date.now()
  const onBatch = async (records: readonly BrokerRecord[]) => {
    const first = records[0]
    const w = first && pending.get(key(first))
    if (finished || !w) return
    lastRecordAt = Date.now()
    const inWindow = records.filter((r) => Number(r.offset) >= w.from && Number(r.offset) < w.to)
    try {
      if (inWindow.length > 0 && (await reader(inWindow, (o) => consumer.commit(o))) === 'enough') return settle()
    } catch (e) {
      return settle(e)
    }
    if (Number(records.at(-1)?.offset) + 1 >= w.to) pending.delete(key(w))
    if (pending.size === 0) settle()
  }
  const watchdog = setInterval(() => {
    if (Date.now() - lastRecordAt > stallMs) settle(new Error(`no record arrived for ${stallMs / 1000} s; ${pending.size} partition(s) not read to the end`))
  }, 500)
  try {
    await consumer.run([...new Set(windows.map((w) => w.topic))], { onBatch, onRevoked: async () => undefined })
    await done
  } finally {
    clearInterval(watchdog)
    await consumer.stop()
  }
}
