// `npm run soak`: an hour (by default) of mixed traffic on all 16 topics through broker
// restarts, ClickHouse outages, SIGKILLs and rebalances, on the soak's OWN servers; then the exact
// end check, liveness and memory verdicts and DIR/index.html. Exit 0 only if everything passed.
import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
import { freePort } from '../../test/support/http.js'
import { ANSWER_GRACE_MS } from '../../src/adapters/http/read-api/read-api.plugin.js'
import { compareCrashes, compareStops } from './checker.js'
import { EndCheck } from './end-check.js'
import { FaultRunner, type Fleet } from './faults.js'
import { SoakInfra, soakPorts } from './infra.js'
import { Instance, logFileOf, startUntilConsuming } from './instance.js'
import { clientOf, parseSoakOptions } from './options.js'
import { SoakProducer } from './producer.js'
import { ProxyWatch } from './proxy-watch.js'
import { quietReads, readsByFault } from './read-stats.js'
import { ReadTruth } from './read-truth.js'
import { SoakReader } from './reader.js'
import { renderReport } from './report.js'
import { Sampler } from './sampler.js'
import { faultSchedule } from './schedule.js'
import { DEFAULT_TRAFFIC, SHARES, TrafficModel } from './traffic.js'
import { memoryVerdict, recoveries } from './verdicts.js'

/**
 * Parking for the soak's time scale: 8 attempts, 2 s doubling to 30 s (about 2 minutes in all)
 * instead of the 5 s → 300 s default (about 15 minutes), so a never-arriving dimension is
 * dead-lettered within a run; late dimensions come 1–5 s after their record.
 */
const PARKING = { DEV_STATS_PARKING_MAX_ATTEMPTS: '8', DEV_STATS_PARKING_BACKOFF_INITIAL_MS: '2000', DEV_STATS_PARKING_BACKOFF_MAX_MS: '30000' }
const RECOVERY_LIMIT_MS = 120_000
/**
 * Memory is judged over at least this long: in a few minutes the RSS follows the backlog the faults
 * leave (prefetch, batches, parked copies), not a leak. The 3-minute CI run measured +14 % and +29 %
 * over 1–2 minutes of catching up, the hour −9 % and −7 %; a 3-minute run does not judge memory.
 */
const MEMORY_MIN_WINDOW_MS = 10 * 60_000
const CAUGHT_UP_SECONDS = 15
/** Toxiproxy's RSS past this stops it and fails the run (it once grew to 22 GB of a 23 GB machine). */
const PROXY_RSS_LIMIT_MB = 2048
/**
 * Past this the harness restarts Toxiproxy, as when its API hangs: removing a toxic while the
 * broker stops, v2.5.0 can grow by a gigabyte in 30 s with its open files falling (docs/soak.md).
 */
const PROXY_STUCK_MB = 1024
/** Reads answered 503 while no fault is active, per instance, above this share fail the run. */
const QUIET_503_MAX = 0.05
/**
 * p99 of the reads started while no fault is active, per instance, above this fails a run of at
 * least QUIET_LATENCY_MIN_MINUTES (a shorter one is mostly its faults' catch-up, as for memory).
 */
const QUIET_P99_MAX_MS = 1000
const QUIET_LATENCY_MIN_MINUTES = 10
/**
 * The read load: calls per second over both routes, the developers asked for, the read time limit
 * the instances get (a route answers within it plus ANSWER_GRACE_MS), and the reader's patience
 * beyond that on a loaded machine before it calls an answer a hang.
 */
const READS = { perSecond: 4, developers: 4, timeoutSeconds: 5, slackMs: 5000 }
const READ_SECRET = randomBytes(48).toString('base64')
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`)

const options = parseSoakOptions(process.argv.slice(2), Date.now() % 2_147_483_647)
const reportDir = resolve(options.reportDir)
const logDir = join(reportDir, 'logs')
mkdirSync(logDir, { recursive: true })
const command = `npm run soak -- --minutes ${options.minutes} --rate ${options.rate} --instances ${options.instances} --broker ${options.broker} --seed ${options.seed}${options.networkFaults ? ' --network-faults' : ''} --report ${options.reportDir}`
log(command)

const infra = new SoakInfra(mkdtempSync(join(tmpdir(), 'dev-stats-soak-')), await soakPorts(options.networkFaults))
const all: Instance[] = []
const base: Instance[] = []
const crashes: string[] = []
let stoppingAll = false
let tStart: number | undefined
let producer: SoakProducer | undefined
let sampler: Sampler | undefined
let faults: FaultRunner | undefined
let reader: SoakReader | undefined
let proxyWatch: ProxyWatch | undefined
let pass = false
const startedAt = new Date().toISOString()
const loads: number[] = []
// Ctrl-C or SIGTERM: stop where it is, but still stop the instances and the own servers.
let interrupted: string | undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void (interrupted ??= signal))
const checkInterrupted = () => {
  if (interrupted) throw new Error(`interrupted by ${interrupted}`)
  if (proxyWatch?.overMb !== undefined) throw new Error(`Toxiproxy's RSS reached ${Math.round(proxyWatch.overMb)} MB (limit ${PROXY_RSS_LIMIT_MB} MB): stopped it before it starves the machine`)
}

try {
  log(`own servers: ClickHouse ${infra.clickhouseUrl}, Kafka ${infra.kafkaBrokers}, state ${infra.stateDir}`)
  await infra.startProxies(log)
  if (infra.hasWire) {
    const wire = infra.wire
    proxyWatch = new ProxyWatch(() => (infra.hasWire ? infra.wire.pid : undefined), PROXY_RSS_LIMIT_MB, (mb) => {
      log(`FAIL Toxiproxy's RSS ${Math.round(mb)} MB is past the limit of ${PROXY_RSS_LIMIT_MB} MB: stopping it`)
      infra.stopProxies()
    }, 1000, { mb: PROXY_STUCK_MB, call: (mb, files) => void wire.restart(`its RSS reached ${Math.round(mb)} MB with ${files} open files`) })
    proxyWatch.start()
  }
  if (options.networkFaults) log(`the service reaches them through Toxiproxy: ClickHouse ${infra.serviceEnv['DEV_STATS_CLICKHOUSE_URL']}, Kafka ${infra.serviceEnv['DEV_STATS_KAFKA_BROKERS']}`)
  await Promise.all([infra.clickhouse('start'), infra.kafka('start')])
  log((await infra.npm('topics')).trim().split('\n').at(-1) ?? '')
  log((await infra.npm('migrate')).trim().split('\n').at(-1) ?? '')
  await new EndCheck(infra.clickhouseUrl, infra.kafkaBrokers).installFunnelProbe()
  // npm start's own build step (if it has one), once, before the instances race to it.
  if ((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['prestart']) execSync('npm run --silent prestart', { stdio: 'inherit' })

  const ports = new Map<string, number>()
  const incarnations = new Map<string, number>()
  const make = (slot: number | { extra: number }): Instance => {
    const name = typeof slot === 'number' ? `i${slot}` : `x${slot.extra}`
    const client = clientOf(options.broker, typeof slot === 'number' ? slot : slot.extra)
    const n = (incarnations.get(name) ?? 0) + 1
    incarnations.set(name, n)
    const port = ports.get(name) ?? 0
    const instance = new Instance(`${name} ${client} #${n}`, name, port, {
      ...infra.serviceEnv,
      ...PARKING,
      DEV_STATS_BROKER: client,
      DEV_STATS_FUNNEL_ENABLED: 'true',
      DEV_STATS_KAFKA_CLIENT_ID: `dev-stats-soak-${name}`,
      DEV_STATS_READ_API_JWT_SECRET: READ_SECRET,
      DEV_STATS_READ_QUERY_TIMEOUT_SECONDS: String(READS.timeoutSeconds),
    }, logFileOf(logDir, `${name}-${client}-${n}`))
    all.push(instance)
    // An instance that dies on its own (a crash) is a finding; the slot is started again, as a supervisor would.
    void instance.consuming.then(async (consuming) => {
      if (!consuming) return
      const exit = await instance.exited
      if (instance.expected || stoppingAll) return
      crashes.push(`${instance.label} exited on its own (${exit.code ?? exit.signal}) at ${Math.round((Date.now() - (tStart ?? Date.now())) / 1000)} s`)
      log(`CRASH ${crashes.at(-1)}`)
      if (typeof slot === 'number' && base[slot] === instance) base[slot] = await startUntilConsuming(() => make(slot), 600_000)
    })
    return instance
  }
  for (let i = 0; i < options.instances; i++) ports.set(`i${i}`, await freePort())
  const fleet: Fleet = {
    slots: options.instances,
    current: (slot) => base[slot] as Instance,
    replace: (slot, next) => void (base[slot] = next),
    make: (slot) => make(slot),
  }
  for (let i = 0; i < options.instances; i++) base.push(await startUntilConsuming(() => make(i), 180_000))
  log(`${options.instances} instances consuming (${base.map((b) => b.label).join(', ')})`)

  const model = new TrafficModel({ seed: options.seed, ...DEFAULT_TRAFFIC })
  const ledgerFile = join(reportDir, 'ledger.ndjson')
  const truth = new ReadTruth()
  producer = new SoakProducer(infra.kafkaBrokers, ledgerFile, model, options.rate, (entry) => truth.observe(entry))
  const totalShare = Object.values(SHARES).reduce((a, b) => a + b, 0)
  const targets = CONSUMERS.map((c) => ({ groupId: c.groupId, source: c.topic, retry: `${c.groupId}.retry`, rate: (options.rate * (SHARES[c.key] ?? 0)) / totalShare }))
  const p = producer
  const t0 = Date.now()
  tStart = t0
  sampler = new Sampler(t0, infra.kafkaBrokers, targets, () => all.filter((i) => i.alive), () => p.acked)
  faults = new FaultRunner(t0, infra, fleet, log)
  const schedule = faultSchedule({ seed: options.seed, minutes: options.minutes, instances: options.instances, networkFaults: options.networkFaults })
  reader = new SoakReader(t0, () => all, truth, { secret: READ_SECRET, perSecond: READS.perSecond, developers: READS.developers, hangMs: READS.timeoutSeconds * 1000 + ANSWER_GRACE_MS + READS.slackMs })
  // Extra instances' HTTP ports, reserved now (the schedule says how many).
  let extras = 0
  for (const f of schedule) if (f.kind === 'instance-add') ports.set(`x${++extras}`, await freePort())
  log(`faults: ${schedule.map((f) => `${f.kind}@${Math.round(f.atMs / 1000)}s`).join(', ')}`)
  await producer.start(200)
  sampler.start()
  reader.start()
  faults.schedule(schedule)
  const loadTimer = setInterval(() => loads.push(loadavg()[0] as number), 30_000)

  const runMs = options.minutes * 60_000
  while (Date.now() - t0 < runMs) {
    for (let i = 0; i < 30 && Date.now() - t0 < runMs; i++) {
      checkInterrupted()
      await sleep(Math.min(1000, runMs - (Date.now() - t0)))
    }
    const s = sampler.series
    const wire = proxyWatch ? `, Toxiproxy ${Math.round(proxyWatch.lastMb)} MB ${proxyWatch.lastFiles} files` : ''
    log(`${Math.round((Date.now() - t0) / 1000)} s: produced ${producer.acked}, queued ${producer.queued}, stored/s ${s.stored.at(-1)}, lag ${s.lag.at(-1)}, behind ${s.behind.at(-1)} s, faults running ${faults.active}${wire}`)
  }
  producer.stopGenerating()
  await reader.stop()
  log(`traffic stopped after ${options.minutes} min: ${model.produced} records made; waiting for the faults in progress and the drain`)
  await faults.settle(undefined, checkInterrupted)
  await producer.flushed(300_000)
  const drainStart = Date.now()
  let zeroes = 0
  while (zeroes < 2) {
    checkInterrupted()
    if (Date.now() - drainStart > 600_000) throw new Error(`the lag did not drain to 0 within 10 minutes (last ${sampler.latestLag})`)
    await sleep(5000)
    await sampler.sampleNow()
    zeroes = sampler.latestLag === 0 && sampler.latestParked === 0 ? zeroes + 1 : 0
    if ((Date.now() - drainStart) % 30_000 < 5000) log(`draining: lag ${sampler.latestLag}, parked in memory ${sampler.latestParked}${proxyWatch ? `, Toxiproxy ${Math.round(proxyWatch.lastMb)} MB ${proxyWatch.lastFiles} files` : ''}`)
  }
  const endMs = Date.now() - t0
  clearInterval(loadTimer)
  log(`drained in ${Math.round((Date.now() - drainStart) / 1000)} s; end check`)
  await sampler.stop()
  await producer.close()

  const checks = [...(await new EndCheck(infra.clickhouseUrl, infra.kafkaBrokers).run(ledgerFile)), compareStops(faults.terms), compareCrashes(crashes)]
  const series = sampler.series
  const lagSamples = series.t.map((t, i) => ({ t: t * 1000, lag: series.behind[i] ?? null }))
  const recs = recoveries(faults.spans, lagSamples, CAUGHT_UP_SECONDS, RECOVERY_LIMIT_MS)
  // faults lie within 10–75 % of the run: the quarter after them, less the last recovery, is judged
  const quietFromMs = Math.max(0, ...recs.map((r) => r.recoveredMs ?? r.endMs))
  const memory = Array.from({ length: options.instances }, (_, slot) => {
    const name = `i${slot}`
    const since = (base[slot] as Instance).startedAt - t0
    const column = series.rss[name] ?? []
    const samples = series.t.flatMap((t, i) => (t * 1000 >= since && column[i] != null ? [{ t: t * 1000, mb: column[i] as number }] : []))
    // Over the run's last two thirds, as the issue says: the traffic period, not the drain after it (a
    // backlog caught up with the traffic stopped; an incarnation started late judged over its catch-up).
    return memoryVerdict(`${name} (${(base[slot] as Instance).label})`, samples, 0, runMs, { warmupMs: 60_000, minWindowMs: Math.max(runMs / 6, MEMORY_MIN_WINDOW_MS), maxGrowth: 0.05, quietFromMs })
  })
  const notes = [
    ...faults.errors.map((e) => `fault error: ${e}`),
    `producer send failures (retried): ${producer.sendFailures}`,
    `machine load average (1 min) during the run: ${loads.length ? `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}` : 'n/a'} on ${(await import('node:os')).cpus().length} cores`,
    pass ? 'the ledger (every produced record with its expected outcome) was deleted after the check passed; a failing run keeps DIR/ledger.ndjson' : 'the ledger of every produced record with its expected outcome: DIR/ledger.ndjson',
    'poison reasons produced: every reason of docs/ingest-rules.md except store-rejected, which needs a table that differs from the migrations',
    `liveness: a fault episode has recovered when every group's source-topic lag is at most ${CAUGHT_UP_SECONDS} s of its own traffic; at the end the lag of every source and retry topic reached 0`,
  ]
  const reads = {
    samples: reader.samples,
    rows: readsByFault(reader.samples, faults.spans),
    findings: reader.findings,
    quiet: quietReads(reader.samples, faults.spans, { max503Share: QUIET_503_MAX, maxP99Ms: QUIET_P99_MAX_MS, judgeLatency: options.minutes >= QUIET_LATENCY_MIN_MINUTES }),
    quietMax: QUIET_503_MAX,
    quietMaxP99Ms: QUIET_P99_MAX_MS,
  }
  const harness = infra.hasWire ? infra.wire.events : []
  const proxy = proxyWatch ? { peakMb: Math.round(proxyWatch.peakMb), peakFiles: proxyWatch.peakFiles, limitMb: PROXY_RSS_LIMIT_MB, pass: proxyWatch.overMb === undefined } : undefined
  notes.unshift(...harness.map((h) => `harness event at ${Math.round(h.atMs / 1000)} s: ${h.what}`))
  pass = checks.every((c) => c.pass) && recs.every((r) => r.pass) && memory.every((m) => m.pass) && faults.errors.length === 0 && reads.findings.length === 0 &&
    reads.quiet.every((q) => q.pass) && (proxy?.pass ?? true)
  const data = {
    title: `dev-stats soak: ${options.minutes} min, ${options.rate} records/s, ${options.instances} instances, ${options.broker}`,
    command,
    startedAt,
    settings: {
      minutes: options.minutes, 'records/s': options.rate, instances: options.instances, broker: options.broker, seed: options.seed,
      'faults scheduled': schedule.length, 'records made': model.produced, parking: '8 attempts, 2 s → 30 s',
      'network faults': options.networkFaults ? 'on (Toxiproxy on the ClickHouse and Kafka links)' : 'off',
      reads: `${READS.perSecond}/s, ${READS.developers} developers, read time limit ${READS.timeoutSeconds} s`,
      ...(proxy ? { 'Toxiproxy peak RSS': `${proxy.peakMb} MB (limit ${proxy.limitMb} MB), at most ${proxy.peakFiles} open files`, 'harness events (Toxiproxy restarted)': harness.length } : {}),
    },
    proxy,
    series,
    faults: faults.spans,
    checks,
    recoveries: recs,
    memory,
    notes,
    reads,
    pass,
  }
  writeFileSync(join(reportDir, 'series.json'), JSON.stringify({ ...data, checks: checks.map(({ details: _, ...c }) => c) }, null, 1))
  writeFileSync(join(reportDir, 'mismatches.json'), JSON.stringify(Object.fromEntries(checks.filter((c) => c.details.length > 0).map((c) => [c.check, c.details])), null, 1))
  writeFileSync(join(reportDir, 'index.html'), renderReport(data))
  for (const c of checks) log(`${c.pass ? 'pass' : 'FAIL'} ${c.check}: expected ${c.expected}, found ${c.found}, missing ${c.missing}, extra ${c.extra}, wrong ${c.wrong}; ${c.note} ${c.samples.join('; ')}`)
  for (const r of recs) log(`${r.pass ? 'pass' : 'FAIL'} recovery of ${r.faults.join(', ')}: ${r.recoveredMs === null ? 'never' : `${((r.recoveredMs - r.endMs) / 1000).toFixed(0)} s`}`)
  for (const m of memory) log(`${m.pass ? 'pass' : 'FAIL'} memory ${m.instance}: ${m.startMb.toFixed(0)} → ${m.endMb.toFixed(0)} MB (${(m.growth * 100).toFixed(1)} %)${m.judged ? '' : ' not judged'}`)
  for (const e of faults.errors) log(`FAIL ${e}`)
  for (const r of reads.rows) log(`reads during ${r.during}: ${r.calls} calls, p50 ${r.p50Ms ?? '–'} ms, p99 ${r.p99Ms ?? '–'} ms, 200 ${(r.ok * 100).toFixed(1)} %, 503 ${(r.unavailable * 100).toFixed(1)} %`)
  for (const q of reads.quiet) {
    log(`${q.pass ? 'pass' : 'FAIL'} reads while no fault is active, ${q.instance}: 503 ${q.unavailable} of ${q.calls} (${(q.share * 100).toFixed(1)} %, limit ${QUIET_503_MAX * 100} %), p99 ${q.p99Ms ?? '–'} ms (limit ${QUIET_P99_MAX_MS} ms${q.latencyJudged ? '' : `, not judged under ${QUIET_LATENCY_MIN_MINUTES} minutes`})`)
  }
  if (proxy) log(`${proxy.pass ? 'pass' : 'FAIL'} Toxiproxy peak RSS ${proxy.peakMb} MB (limit ${proxy.limitMb} MB); harness events ${harness.length}`)
  log(`${reads.findings.length === 0 ? 'pass' : 'FAIL'} reads: ${reads.findings.length} findings${reads.findings.length ? `: ${reads.findings.slice(0, 10).join('; ')}` : ''}`)
  if (pass) rmSync(ledgerFile) // an hour's ledger is gigabytes; a failing run keeps it to look into
  log(`${pass ? 'PASS' : 'FAIL'}; report ${join(reportDir, 'index.html')}`)
} catch (e) {
  log(`FAIL: ${(e as Error).stack ?? String(e)}`)
} finally {
  proxyWatch?.stop()
  await faults?.settle(60_000).catch((e: unknown) => log(`FAIL: ${String(e)}`))
  await reader?.stop().catch(() => undefined)
  await sampler?.stop().catch(() => undefined)
  await producer?.close().catch(() => undefined)
  stoppingAll = true
  await Promise.allSettled(all.filter((i) => i.alive).map((i) => i.term(30_000)))
  // A failing run keeps the servers' data to look into (start them again with the scripts and these ports).
  await infra.dispose(!pass)
  log(pass ? 'own servers stopped' : `own servers stopped; their data kept in ${infra.stateDir} (ClickHouse HTTP ${infra.ports.clickhouseHttp}, TCP ${infra.ports.clickhouseTcp}; Kafka ${infra.ports.kafka}, controller ${infra.ports.kafkaController})`)
}
process.exit(pass ? 0 : 1)
