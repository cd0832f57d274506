import type { Metric, MetricValueWithName, Registry } from 'prom-client'

/** A bucket carries `exemplar: null` as prom-client's do (exemplars are off). */
type Value = MetricValueWithName<string> & { readonly exemplar?: null }

interface Series {
  readonly counts: number[]
  sum: number
  count: number
}

/**
 * A histogram labelled by consumer, exposed through a prom-client Registry exactly as prom-client's
 * own Histogram is (`_bucket{le,consumer}` cumulative, `+Inf`, `_sum`, `_count`). observe() is a
 * bucket search and three additions: the lag histograms take a value per row and per record, and
 * prom-client's observe (label checks, a label hash, two objects per call) cost about as much as
 * the rest of a record's way through the engine.
 */
export class ConsumerHistogram {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private readonly series = new Map<string, Series>()

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric)
  }

  observe(consumer: string, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`)
    let s = this.series.get(consumer)
    if (!s) {
      s = { counts: this.bounds.map(() => 0), sum: 0, count: 0 }
      this.series.set(consumer, s)
    }
    const bounds = this.bounds
    const counts = s.counts
    let i = 0
    while (i < bounds.length && value > (bounds[i] as number)) i++
    if (i < bounds.length) counts[i] = (counts[i] as number) + 1
    s.sum += value
    s.count++
  }

  reset(): void {
    this.series.clear()
  }

  /** What prom-client's Registry reads of a metric (its exposition and JSON). */
  get(): { name: string; help: string; type: 'histogram'; values: Value[]; aggregator: 'sum' } {
    const values: Value[] = []
    for (const [consumer, s] of this.series) {
      let cumulative = 0
      this.bounds.forEach((le, i) => {
        cumulative += s.counts[i] as number
        values.push({ labels: { le, consumer }, value: cumulative, metricName: `${this.name}_bucket`, exemplar: null })
      })
      values.push({ labels: { le: '+Inf', consumer }, value: s.count, metricName: `${this.name}_bucket`, exemplar: null })
      values.push({ labels: { consumer }, value: s.sum, metricName: `${this.name}_sum` })
      values.push({ labels: { consumer }, value: s.count, metricName: `${this.name}_count` })
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: this.aggregator }
  }
}
