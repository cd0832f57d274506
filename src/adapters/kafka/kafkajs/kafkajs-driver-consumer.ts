import type { Consumer } from 'kafkajs'
import type { TopicPartition } from '../../../application/ports/broker.port.js'
import type { DriverConsumer, RebalanceHooks } from './driver-consumer.js'

/** Builds the kafkajs consumer; `restartOnFailure` goes into its `retry` settings. */
export type KafkaJsConsumerFactory = (restartOnFailure: (e: Error) => Promise<boolean>) => Consumer

const assignmentOf = (memberAssignment: Record<string, number[]>): TopicPartition[] =>
  Object.entries(memberAssignment).flatMap(([topic, partitions]) => partitions.map((partition) => ({ topic, partition })))

/**
 * The DriverConsumer over one kafkajs consumer. kafkajs has no revoke hook: every GROUP_JOIN
 * carries the new assignment, and what is missing from it compared with the last one was revoked.
 *
 * A crash kafkajs restarts itself (CRASH with restart) joins again with a new fetch loop; kafkajs's
 * stop during that join does nothing and forgets the loop, which then consumes on after our
 * disconnect with nothing left to stop it. So the disconnect waits for such a restart to have
 * joined or crashed, and once disconnecting no crash is restarted.
 */
export const kafkaJsDriverConsumer = (create: KafkaJsConsumerFactory, hooks: RebalanceHooks, gaveUp: (e: unknown) => void): DriverConsumer => {
  let stopped = false
  let restart: { done: Promise<void>; end: () => void } | undefined
  // After a macrotask: kafkajs marks its loop running only after GROUP_JOIN's listeners ran.
  const restartEnded = () => {
    const r = restart
    restart = undefined
    if (r) setImmediate(r.end)
  }
  const consumer = create(async () => !stopped)
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    restartEnded()
    const revoked = hooks.assignment.replace(assignmentOf(e.payload.memberAssignment))
    void hooks.revoked(revoked)
    hooks.assigned()
  })
  // A crash of the fetch loop: nothing is owned meanwhile.
  consumer.on(consumer.events.CRASH, (e) => {
    void hooks.revoked(hooks.assignment.clear())
    if (e.payload.restart) {
      if (!restart) {
        let end!: () => void
        const done = new Promise<void>((r) => (end = r))
        restart = { done, end }
      }
      return
    }
    restartEnded()
    if (stopped) return
    gaveUp(e.payload.error)
    hooks.fatal(e.payload.error)
  })
  return {
    connect: () => consumer.connect(),
    subscribe: ({ topics }) => consumer.subscribe({ topics, fromBeginning: true }),
    run: ({ eachBatchAutoResolve, eachBatch }) =>
      consumer.run({ autoCommit: false, eachBatchAutoResolve, partitionsConsumedConcurrently: 1, eachBatch }),
    commitOffsets: (offsets) => consumer.commitOffsets(offsets),
    pause: (topics) => consumer.pause(topics),
    resume: (topics) => consumer.resume(topics),
    disconnect: async () => {
      stopped = true
      await restart?.done
      await consumer.disconnect()
    },
  }
}
