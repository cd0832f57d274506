import kafkajs from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { until } from '../../support/http.js'
import { createTopics, KAFKA_ADAPTERS, KAFKA_BROKERS, kafkaBroker } from '../../support/kafka.js'
import type { OwnClickHouse } from '../../support/own-clickhouse.js'
import { get, sample, startOwnService, sumOf, type ServiceProcess as Service } from '../../support/service-process.js'

// Issue 7 "Operable": `npm start` on the real Kafka broker and a real ClickHouse server of this
// test's own, scraped over real HTTP. /metrics shows consumer lag and progress; /health/ready
// flips to 503 while ClickHouse is down longer than the (shortened) threshold and back after.
const THRESHOLD_SECONDS = 3

const deleteTopic = async (topic: string): Promise<void> => {
  const admin = new kafkajs.Kafka({ clientId: 'dev-stats-test-admin', brokers: KAFKA_BROKERS, logLevel: kafkajs.logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    await admin.deleteTopics({ topics: [topic] })
    // the broker applies a deletion after answering: a dead letter published meanwhile is written (CI, once)
    await until(`${topic} gone`, async () => !(await admin.listTopics()).includes(topic), 30_000, 100)
  } finally {
    await admin.disconnect()
  }
}

describe.each(KAFKA_ADAPTERS)('npm start with %s: /metrics and /health over real HTTP', (adapter) => {
  let clickhouse: OwnClickHouse
  let service: Service | undefined
  let sessionTopic = ''

  beforeAll(async () => {
    ;({ clickhouse, service, sessionTopic } = await startOwnService(adapter, 'ops', {
      DEV_STATS_READY_MAX_RETRY_SECONDS: String(THRESHOLD_SECONDS),
      DEV_STATS_LAG_INTERVAL_MS: '300',
      DEV_STATS_SINK_BACKOFF_INITIAL_MS: '200',
      DEV_STATS_SINK_BACKOFF_MAX_MS: '1000',
    }))
  })

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL')
    }
    clickhouse?.dispose()
  })

  const publish = async (n: number): Promise<void> => {
    const broker = kafkaBroker('kafkajs')
    await broker.producer().publish(Array.from({ length: n }, () => binaryRecord(sessionTopic, sessionEndedPayload())))
    await broker.close()
  }

  it('is live, becomes ready once every consumer joined, and /metrics shows lag, progress and commits', async () => {
    const s = service as Service
    const dump = () => s.output.join('').slice(-4000)
    await until('/health/live 200', async () => (await get(`${s.url}/health/live`)).status === 200, 60_000, 200).catch((e) => {
      throw new Error(`${String(e)}\n${dump()}`)
    })
    await until('/health/ready 200', async () => (await get(`${s.url}/health/ready`)).status === 200, 120_000, 250).catch((e) => {
      throw new Error(`${String(e)}\n${dump()}`)
    })
    expect(JSON.parse((await get(`${s.url}/health/ready`)).body)).toEqual({ status: 'ready', reasons: [] })

    await publish(20)
    const lag = `dev_stats_consumer_lag_records{consumer="session-ended",topic="${sessionTopic}",partition="0"}`
    let text = ''
    await until('20 rows ingested, committed and lag 0', async () => {
      text = (await get(`${s.url}/metrics`)).body
      return sample(text, 'dev_stats_session_facts_ingested_total{consumer="session-ended"}') === 20 && sample(text, lag) === 0
    }, 60_000, 250).catch((e) => {
      throw new Error(`${String(e)}\n${text.split('\n').filter((l) => l.includes('session-ended')).join('\n')}\n${dump()}`)
    })
    expect(sample(text, 'dev_stats_arrival_lag_seconds_count{consumer="session-ended"}')).toBe(20)
    expect(sample(text, 'dev_stats_seconds_since_last_commit{consumer="session-ended"}')).toBeLessThan(30)
    expect(sample(text, 'dev_stats_parked_in_memory{consumer="session-ended"}')).toBe(0)
    expect(sample(text, 'dev_stats_consumer_joined{consumer="funnel-crm-deal"}')).toBe(1)
    expect(text).toContain('# TYPE dev_stats_dlq_total counter')
    expect(text).toContain('# TYPE dev_stats_sink_retries_total counter')
  })

  it(`/health/ready is 503 while ClickHouse is down longer than ${THRESHOLD_SECONDS} s, lag shows the waiting records, and both recover`, async () => {
    const s = service as Service
    const lag = `dev_stats_consumer_lag_records{consumer="session-ended",topic="${sessionTopic}",partition="0"}`
    clickhouse.stop()
    try {
      await publish(10)
      let ready = { status: 0, body: '' }
      await until('503 naming the failing insert', async () => {
        ready = await get(`${s.url}/health/ready`)
        return ready.status === 503 && ready.body.includes('session-ended: insert has been failing')
      }, 60_000, 250).catch((e) => {
        throw new Error(`${String(e)}: last ${ready.status} ${ready.body}\n${s.output.join('').slice(-3000)}`)
      })
      const reasons = (JSON.parse(ready.body) as { status: string; reasons: string[] })
      expect(reasons.status).toBe('not ready')
      expect(reasons.reasons.some((r) => r.startsWith('store: '))).toBe(true)
      let text = ''
      await until('lag of the 10 uncommitted records', async () => {
        text = (await get(`${s.url}/metrics`)).body
        return sample(text, lag) === 10
      }, 30_000, 250)
      expect(sample(text, 'dev_stats_retrying_seconds{consumer="session-ended"}')).toBeGreaterThan(THRESHOLD_SECONDS)
      expect(sumOf(text, 'dev_stats_sink_retries_total{consumer="session-ended"}')).toBeGreaterThan(0)
      expect((await get(`${s.url}/health/live`)).status).toBe(200)
    } finally {
      clickhouse.start()
    }
    await until('/health/ready 200 again', async () => (await get(`${s.url}/health/ready`)).status === 200, 60_000, 250)
    let text = ''
    await until('30 rows and lag 0', async () => {
      text = (await get(`${s.url}/metrics`)).body
      return sample(text, 'dev_stats_session_facts_ingested_total{consumer="session-ended"}') === 30 && sample(text, lag) === 0
    }, 60_000, 250)
    expect(sample(text, 'dev_stats_retrying_seconds{consumer="session-ended"}')).toBe(0)
  })

  it('/health/ready is 503 at once while a dead letter cannot be published because its topic vanished, and 200 once it is back', async () => {
    const s = service as Service
    const dlq = `${sessionTopic}.dlq`
    await deleteTopic(dlq)
    const broker = kafkaBroker('kafkajs')
    await broker.producer().publish([binaryRecord(sessionTopic, '{ not json')])
    await broker.close()
    let ready = { status: 0, body: '' }
    await until('503 naming the missing topic', async () => {
      ready = await get(`${s.url}/health/ready`)
      return ready.status === 503 && ready.body.includes('session-ended: publish fails, a topic is missing')
    }, 90_000, 250).catch((e) => {
      throw new Error(`${String(e)}: last ${ready.status} ${ready.body}\n${s.output.join('').slice(-3000)}`)
    })
    await createTopics([{ name: dlq, partitions: 1 }])
    await until('/health/ready 200 after the topic is back', async () => (await get(`${s.url}/health/ready`)).status === 200, 90_000, 250)
  })

  it('SIGTERM: exits 0 and the HTTP server is gone', async () => {
    const s = service as Service
    const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)))
    s.child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect((await get(`${s.url}/health/live`)).status).toBe(0)
  })
})
