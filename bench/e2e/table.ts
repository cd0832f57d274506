import type { BenchOptions } from './options.js'

export interface Line {
  readonly label: string
  readonly n: number
  /** From the consumer's start (process spawn / view creation) until all n rows were visible. */
  readonly seconds: number
  /** From the start until it was consuming (group joined). */
  readonly startup: number
  readonly rssMb: number | undefined
  /** The service's user + system CPU time until then (undefined for the engine: it runs in the server). */
  readonly cpuSeconds: number | undefined
  readonly rows: number
  readonly exactlyOnce: boolean
  readonly missing: number
  readonly p50?: number
  readonly p99?: number
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined ? '-' : n.toFixed(digits))

/** The Markdown table the README quotes; the first line (the Kafka engine) is the reference. */
export const printTable = (lines: readonly Line[], o: BenchOptions): void => {
  const reference = lines.find((l) => l.label.startsWith('ClickHouse'))
  const rate = (l: Line) => l.n / l.seconds
  const steady = o.steady > 0
  const mode = steady ? `steady ${o.steady.toLocaleString('en')} records/s for ${o.seconds} s` : `backlog of ${o.records.toLocaleString('en')} records`
  console.log(`\n${mode}, ${lines[0]?.n.toLocaleString('en')} session-ended records with CloudEvents headers, 3 partitions\n`)
  // In steady mode the producer sets the pace: time and records/s say nothing, latency does.
  console.log(steady
    ? '| consumer | peak RSS MB | startup s | rows (with redeliveries) | every record once | p50 / p99 latency s |\n|---|---|---|---|---|---|'
    : '| consumer | time s | records/s | vs engine | CPU s | peak RSS MB | startup s | rows (with redeliveries) | every record once |\n|---|---|---|---|---|---|---|---|---|')
  for (const l of lines) {
    const ratio = reference ? `${(rate(l) / rate(reference)).toFixed(2)}×` : '-'
    const rss = l.rssMb === undefined ? '(in the server)' : l.rssMb.toFixed(0)
    const once = l.exactlyOnce ? 'yes' : `NO (${l.missing} missing)`
    const common = `${rss} | ${fmt(l.startup)} | ${l.rows.toLocaleString('en')} | ${once}`
    console.log(steady
      ? `| ${l.label} | ${common} | ${fmt(l.p50)} / ${fmt(l.p99)} |`
      : `| ${l.label} | ${fmt(l.seconds)} | ${Math.round(rate(l)).toLocaleString('en')} | ${ratio} | ${fmt(l.cpuSeconds)} | ${common} |`)
  }
  if (steady) console.log('\nlatency: a record\'s IngestionTime (whole seconds, rounded up) minus its scheduled send time')
}
