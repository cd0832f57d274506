import type { TopicPartition } from '../../../application/ports/broker.port.js'
import type { Assignment } from '../shared/assignment.js'
import type { NativeClient } from './confluent-native-client.js'

/**
 * The two independent pauses of the BrokerConsumer port over librdkafka's per-partition
 * pause/resume: a store pause (every topic) and per-topic pauses; a partition fetches when
 * neither holds it. librdkafka drops what it prefetched for a paused partition and resumes from
 * the last message handed to us, so nothing is skipped.
 */
export class NativePauses {
  topics: string[] = []
  private paused = false
  private readonly pausedTopics = new Set<string>()

  constructor(private readonly assignment: Assignment) {}

  pause(client: NativeClient | undefined): void {
    this.paused = true
    this.apply(client, this.topics, true)
  }

  resume(client: NativeClient | undefined): void {
    this.paused = false
    this.apply(client, this.topics.filter((t) => !this.pausedTopics.has(t)), false)
  }

  pauseTopic(client: NativeClient | undefined, topic: string): void {
    this.pausedTopics.add(topic)
    this.apply(client, [topic], true)
  }

  resumeTopic(client: NativeClient | undefined, topic: string): void {
    this.pausedTopics.delete(topic)
    if (!this.paused) this.apply(client, [topic], false)
  }

  /**
   * Newly assigned partitions start paused when a pause holds their topic, and fetch otherwise:
   * librdkafka keeps a partition's pause across revoke and assign, so one paused, taken away,
   * resumed meanwhile (a resume acts on the assigned partitions only) and given back would stay
   * paused for good.
   */
  reapply(client: NativeClient, assigned: readonly TopicPartition[]): void {
    const isHeld = (tp: TopicPartition) => this.paused || this.pausedTopics.has(tp.topic)
    const held = assigned.filter(isHeld)
    const free = assigned.filter((tp) => !isHeld(tp))
    if (held.length > 0) this.safely(() => client.pause(held.map(copy)))
    if (free.length > 0) this.safely(() => client.resume(free.map(copy)))
  }

  private apply(client: NativeClient | undefined, topics: readonly string[], pause: boolean): void {
    const partitions = this.assignment.current().filter((tp) => topics.includes(tp.topic))
    if (!client || partitions.length === 0) return
    this.safely(() => (pause ? client.pause(partitions) : client.resume(partitions)))
  }

  // Before the client joined (or after it left) there is nothing to act on.
  private safely(action: () => unknown): void {
    try {
      action()
    } catch {
      /* not running yet or any more */
    }
  }
}

const copy = (tp: TopicPartition): TopicPartition => ({ topic: tp.topic, partition: tp.partition })
