import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import kafkajs from 'kafkajs'
import { freePort } from '../../support/http.js'
import { runInfraScript } from '../../support/infra-script.js'
import type { OwnToxiproxy, WireProxy } from '../../support/toxiproxy.js'

/**
 * A Kafka broker of the test's own (scripts/kafka-broker.sh on free ports, own state dir) whose
 * PROXIED listener is advertised at a Toxiproxy proxy's port: a client bootstrapped at `proxied`
 * keeps going through the proxy after metadata. `direct` bypasses it (the test's producer and admin).
 */
export class OwnProxiedKafka {
  private readonly stateDir = mkdtempSync(join(tmpdir(), 'dev-stats-kafka-'))

  private constructor(
    private readonly env: Record<string, string>,
    readonly direct: string,
    readonly proxy: WireProxy,
  ) {}

  static async start(toxiproxy: OwnToxiproxy, name: string): Promise<OwnProxiedKafka> {
    const [port, controller, proxied, proxyPort] = [await freePort(), await freePort(), await freePort(), await freePort()]
    const proxy = await toxiproxy.proxy(name, proxied, proxyPort)
    const k = new OwnProxiedKafka({
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(controller),
      KAFKA_PROXIED_PORT: String(proxied),
      KAFKA_PROXIED_ADVERTISED_PORT: String(proxyPort),
    }, `127.0.0.1:${port}`, proxy)
    k.run('start')
    return k
  }

  get proxied(): string {
    return `127.0.0.1:${this.proxy.port}`
  }

  admin(): kafkajs.Admin {
    return new kafkajs.Kafka({ clientId: 'dev-stats-test-admin', brokers: [this.direct], logLevel: kafkajs.logLevel.NOTHING }).admin()
  }

  /** The group's lag on a topic (end offsets − committed), read past the proxy. */
  async lag(groupId: string, topic: string): Promise<number> {
    const a = this.admin()
    await a.connect()
    try {
      const [ends, committed] = await Promise.all([a.fetchTopicOffsets(topic), a.fetchOffsets({ groupId, topics: [topic] })])
      const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]))
      return ends.reduce((n, e) => n + Number(e.high) - Math.max(Number(e.low), done.get(e.partition) ?? -1), 0)
    } finally {
      await a.disconnect()
    }
  }

  stop(): void {
    try {
      this.run('stop')
    } finally {
      rmSync(this.stateDir, { recursive: true, force: true })
    }
  }

  private run(command: 'start' | 'stop'): void {
    runInfraScript('kafka-broker.sh', command, { ...this.env, DEV_STATS_INFRA_DIR: this.stateDir })
  }
}
