import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { until } from '../../support/http.js'
import { kafkaBroker } from '../../support/kafka.js'
import type { OwnClickHouse } from '../../support/own-clickhouse.js'
import { get, sample, startOwnService, sumOf, type ServiceProcess } from '../../support/service-process.js'

// Issue 66: after a ClickHouse outage the sink's backoff may have grown to a minute; the store
// answering again (the parts-pressure read, every 5 s) must end it. `npm start` on the real broker
// and a ClickHouse server of this test's own, with a first backoff of 30 s: the rows published
// during the outage are stored within seconds of the server's return, not at the next attempt.
// The wake is the composition's (one StoreRecovery per process), not the broker adapter's: kafkajs only.
const BACKOFF_MS = 30_000
const INGESTED = 'dev_stats_session_facts_ingested_total{consumer="session-ended"}'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('npm start: a grown sink backoff ends when ClickHouse answers again', () => {
  let own: OwnClickHouse
  let service: ServiceProcess | undefined
  let sessionTopic = ''

  beforeAll(async () => {
    ;({ clickhouse: own, service, sessionTopic } = await startOwnService('kafkajs', 'recovery', {
      DEV_STATS_SINK_BACKOFF_INITIAL_MS: String(BACKOFF_MS),
      DEV_STATS_SINK_BACKOFF_MAX_MS: String(2 * BACKOFF_MS),
    }))
  })

  afterAll(() => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL')
    own?.dispose()
  })

  const publish = async (n: number): Promise<void> => {
    const broker = kafkaBroker('kafkajs')
    await broker.producer().publish(Array.from({ length: n }, () => binaryRecord(sessionTopic, sessionEndedPayload())))
    await broker.close()
  }
  const metrics = async (): Promise<string> => (await get(`${(service as ServiceProcess).url}/metrics`)).body
  const dump = () => (service as ServiceProcess).output.join('').slice(-3000)

  it(`rows of the outage stored within 12 s of ClickHouse's return, though the next attempt was ${BACKOFF_MS / 1000} s after the first failure`, async () => {
    const s = service as ServiceProcess
    await until('/health/ready 200', async () => (await get(`${s.url}/health/ready`)).status === 200, 120_000, 250).catch((e) => {
      throw new Error(`${String(e)}\n${dump()}`)
    })
    await publish(5)
    await until('5 rows stored', async () => sample(await metrics(), INGESTED) === 5, 60_000, 250)

    own.stop()
    await publish(10)
    await until('a failed insert', async () => sumOf(await metrics(), 'dev_stats_sink_retries_total{consumer="session-ended"') > 0, 60_000, 100)
    const failedAt = Date.now()
    await sleep(7000) // a parts-pressure read (every 5 s) fails meanwhile
    own.start()
    const backAt = Date.now()
    const nextAttemptInMs = failedAt + BACKOFF_MS - backAt
    expect(nextAttemptInMs).toBeGreaterThan(15_000) // else the test would pass without the wake

    await until('15 rows stored', async () => sample(await metrics(), INGESTED) === 15, 60_000, 100).catch((e) => {
      throw new Error(`${String(e)}\n${dump()}`)
    })
    const storedAfterMs = Date.now() - backAt
    expect(storedAfterMs, `stored ${storedAfterMs} ms after the return; the backoff alone: ${nextAttemptInMs} ms`).toBeLessThan(12_000)
  })
})
