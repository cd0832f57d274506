import type { Floor } from '../floor.js'
import type { BenchOptions } from './options.js'

export interface Line {
  readonly label: string
  readonly n: number
  /** From the consumer's start (process spawn / view creation) until all n rows were visible. */
  readonly seconds: number
  /** From the start until it was consuming (group joined). */
  readonly startup: number
  readonly rssMb: number | undefined
  /** The service's process tree, user + system CPU time until then (undefined for the engine: it runs in the server). */
  readonly cpuSeconds: number | undefined
  /** Of cpuSeconds, the service's main thread (the rest: libuv's pool, librdkafka's threads). */
  readonly mainThreadCpuSeconds: number | undefined
  /** The ClickHouse server's and the Kafka broker's CPU time over the same span (undefined: not local). */
  readonly clickhouseCpuSeconds: number | undefined
  readonly kafkaCpuSeconds: number | undefined
  readonly rows: number
  readonly exactlyOnce: boolean
  readonly missing: number
  readonly p50?: number
  readonly p99?: number
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined ? '–' : n.toFixed(digits))
const sum = (xs: readonly (number | undefined)[]): number | undefined => (xs.some((x) => x === undefined) ? undefined : xs.reduce<number>((a, x) => a + (x as number), 0))

/** The service's own CPU µs per record (the engine: none of its own, it runs in the server). */
export const serviceUs = (l: Line): number | undefined => (l.cpuSeconds === undefined ? undefined : (l.cpuSeconds * 1e6) / l.n)
/** Service + ClickHouse server + Kafka broker CPU µs per record. */
export const allUs = (l: Line): number | undefined => {
  const s = sum([l.cpuSeconds ?? 0, l.clickhouseCpuSeconds, l.kafkaCpuSeconds])
  return s === undefined ? undefined : (s * 1e6) / l.n
}

/** Each label's rounds; the line shown is the median round by its CPU per record. */
const byLabel = (lines: readonly Line[]): { shown: Line; rounds: Line[] }[] => {
  const groups = new Map<string, Line[]>()
  for (const l of lines) groups.set(l.label, [...(groups.get(l.label) ?? []), l])
  return [...groups.values()].map((rounds) => {
    const key = (l: Line) => serviceUs(l) ?? allUs(l) ?? l.seconds
    const sorted = [...rounds].sort((a, b) => key(a) - key(b))
    return { shown: sorted[Math.floor((sorted.length - 1) / 2)] as Line, rounds }
  })
}

/** The Markdown tables docs/performance.md quotes; the first line (the Kafka engine) is the time reference. */
export const printTable = (lines: readonly Line[], o: BenchOptions, floor: Floor): void => {
  const reference = lines.find((l) => l.label.startsWith('ClickHouse'))
  const rate = (l: Line) => l.n / l.seconds
  const steady = o.steady > 0
  const groups = byLabel(lines)
  const mode = steady ? `steady ${o.steady.toLocaleString('en')} records/s for ${o.seconds} s` : `backlog of ${o.records.toLocaleString('en')} records`
  const rounds = o.rounds > 1 ? `, median of ${o.rounds} rounds (by CPU per record)` : ''
  console.log(`\n${mode}, ${lines[0]?.n.toLocaleString('en')} session-ended records with CloudEvents headers, 3 partitions${rounds}\n`)
  // In steady mode the producer sets the pace: time and records/s say nothing, latency does.
  console.log(steady
    ? '| consumer | peak RSS MB | startup s | rows (with redeliveries) | every record once | p50 / p99 latency s |\n|---|---|---|---|---|---|'
    : '| consumer | time s | records/s | vs engine | service + ClickHouse + Kafka CPU µs/record | peak RSS MB | startup s | rows (with redeliveries) | every record once |\n|---|---|---|---|---|---|---|---|---|')
  for (const { shown: l } of groups) {
    const ratio = reference ? `${(rate(l) / rate(reference)).toFixed(2)}×` : '–'
    const rss = l.rssMb === undefined ? '(in the server)' : l.rssMb.toFixed(0)
    const once = l.exactlyOnce ? 'yes' : `NO (${l.missing} missing)`
    const common = `${rss} | ${fmt(l.startup)} | ${l.rows.toLocaleString('en')} | ${once}`
    console.log(steady
      ? `| ${l.label} | ${common} | ${fmt(l.p50)} / ${fmt(l.p99)} |`
      : `| ${l.label} | ${fmt(l.seconds)} | ${Math.round(rate(l)).toLocaleString('en')} | ${ratio} | **${fmt(allUs(l))}** | ${common} |`)
  }
  if (steady) console.log('\nlatency: a record\'s IngestionTime (whole seconds, rounded up) minus its scheduled send time')
  printCost(groups, floor, o.rounds > 1)
}

/** CPU per record: the service's own, and with the two servers' work for it, each as a multiple of the floor. */
const printCost = (groups: readonly { shown: Line; rounds: Line[] }[], floor: Floor, eachRound: boolean): void => {
  const f = floor.usPerRecord
  const x = (us: number | undefined) => (us === undefined ? '–' : `${(us / f).toFixed(0)}×`)
  console.log(`\nCPU per record, floor ${f.toFixed(2)} µs (UTF-8 decode + JSON.parse, this run)\n`)
  console.log(`| consumer | CPU s: service (main thread) / ClickHouse / Kafka | service µs/record | × floor | all three µs/record | × floor |${eachRound ? ' service µs/record each round |' : ''}`)
  console.log(`|---|---|---|---|---|---|${eachRound ? '---|' : ''}`)
  for (const { shown: l, rounds } of groups) {
    const each = eachRound ? ` ${rounds.map((r) => fmt(serviceUs(r) ?? allUs(r))).join(' ')} |` : ''
    const main = l.mainThreadCpuSeconds === undefined ? '' : ` (${fmt(l.mainThreadCpuSeconds)})`
    console.log(`| ${l.label} | ${fmt(l.cpuSeconds)}${main} / ${fmt(l.clickhouseCpuSeconds)} / ${fmt(l.kafkaCpuSeconds)} | ${fmt(serviceUs(l))} | ${x(serviceUs(l))} | ${fmt(allUs(l))} | ${x(allUs(l))} |${each}`)
  }
}

/**
 * bench:e2e --history: service CPU per record side by side per store history size (the median
 * round of each line), the change from the first size to each other, and with --against the
 * change from the other checkout (the commit before) to this one at each size.
 */
export const printHistoryTable = (lines: readonly Line[], o: BenchOptions): void => {
  const us = new Map<string, Map<number, number | undefined>>()
  for (const { shown } of byLabel(lines)) {
    const m = /^(.*), history (\d+)×$/.exec(shown.label)
    if (!m) continue
    const [, base = '', h = '0'] = m
    if (!us.has(base)) us.set(base, new Map())
    us.get(base)?.set(Number(h), serviceUs(shown))
  }
  const sizes = o.history
  const [first] = sizes
  const change = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '–' : `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)} %`)
  const rounds = o.rounds > 1 ? `, median of ${o.rounds} rounds` : ''
  console.log(`\nservice CPU µs per record by store history (the service's database pre-loaded with bench:read's data at that scale; 0: empty)${rounds}\n`)
  const others = sizes.slice(1)
  console.log(`| consumer | ${sizes.map((h) => `history ${h}× µs/record`).join(' | ')} |${others.map((h) => ` ${h}× vs ${first}× |`).join('')}`)
  console.log(`|---|${sizes.map(() => '---|').join('')}${others.map(() => '---|').join('')}`)
  for (const [base, byHistory] of us) {
    console.log(`| ${base} | ${sizes.map((h) => fmt(byHistory.get(h))).join(' | ')} |${others.map((h) => ` ${change(byHistory.get(first as number), byHistory.get(h))} |`).join('')}`)
  }
  // --against: "<client> @ <commit>" lines, the other checkouts first and this one last
  const commits = new Map<string, string[]>()
  for (const base of us.keys()) {
    const [client, commit] = base.split(' @ ')
    if (client !== undefined && commit !== undefined) commits.set(client, [...(commits.get(client) ?? []), base])
  }
  if (commits.size === 0) return
  console.log(`\nservice CPU per record against the other checkout, at each store history${rounds}\n`)
  console.log('| consumer | history | before µs/record | this µs/record | change |')
  console.log('|---|---|---|---|---|')
  for (const [client, bases] of commits) {
    const before = bases[0] as string
    const now = bases[bases.length - 1] as string
    for (const h of sizes) {
      const a = us.get(before)?.get(h)
      const b = us.get(now)?.get(h)
      console.log(`| ${client} (${before.split(' @ ')[1]} → ${now.split(' @ ')[1]}) | ${h}× | ${fmt(a)} | ${fmt(b)} | ${change(a, b)} |`)
    }
  }
}
