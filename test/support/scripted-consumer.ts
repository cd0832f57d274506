import type { BrokerConsumer, ConsumerCallbacks, OffsetCommit } from '../../src/application/ports/broker.port.js'

/** A consumer the test drives: it hands batches and revocations to the engine when it says, and records commits. */
export class ScriptedConsumer implements BrokerConsumer {
  callbacks: ConsumerCallbacks | undefined
  /** While false, commits are dropped, as a real client drops partitions it no longer owns. */
  owned = true
  readonly commits: OffsetCommit[] = []
  async run(_topics: readonly string[], callbacks: ConsumerCallbacks): Promise<void> {
    this.callbacks = callbacks
  }
  async commit(offsets: readonly OffsetCommit[]): Promise<void> {
    if (this.owned) this.commits.push(...offsets)
  }
  pause(): void {}
  resume(): void {}
  pauseTopic(): void {}
  resumeTopic(): void {}
  async stop(): Promise<void> {}
}
