import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { IngestMetrics } from '../../application/ports/metrics.port.js'
import { FACT_TABLES, type FactTable } from '../../domain/fact-row.js'
import { ASSUMPTION_BREACHES, PAIR_BREACHES, type AssumptionBreach, type PairBreach } from '../../domain/serving-window.js'
import { ConsumerHistogram } from './consumer-histogram.js'

// 0.5 and 2: a freshness objective of seconds (p99 arrival-to-stored ≤ 2 s) can be read off the buckets
const LAG_BUCKETS = [0.5, 1, 2, 5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]
const SIZE_BUCKETS = [1, 10, 50, 100, 250, 500, 1000]

/**
 * Spec §9 metrics on prom-client. Rows ingested are one family per table
 * (`dev_stats_session_facts_ingested_total`, `dev_stats_funnel_daily_ingested_total`, …). Every
 * family is registered at construction and `seed` puts each consumer's counters at 0: a series
 * that appears only at its first event breaks `rate()` and absent-series alerts.
 */
export class PromMetrics implements IngestMetrics {
  private readonly ingested = new Map<FactTable, Counter<'consumer'>>()
  private readonly lag: ConsumerHistogram
  private readonly arrival: ConsumerHistogram
  private readonly size: Histogram<'consumer'>
  private readonly insertSeconds: Histogram<'consumer'>
  private readonly dlq: Counter<'consumer' | 'reason'>
  private readonly skips: Counter<'consumer' | 'reason'>
  private readonly retries: Counter<'consumer'>
  private readonly parkedTotal: Counter<'consumer'>
  private readonly recovered: Counter<'consumer'>
  private readonly gaps: Counter<'consumer'>
  private readonly unprovenGaps: Counter<'consumer'>
  private readonly mismatches: Counter<'consumer'>
  private readonly partsRefusals: Counter<'consumer'>
  private readonly budgetPauses: Counter<'consumer'>
  private readonly outOfAssumption: Counter<'consumer' | 'reason'>
  private readonly linkDrops: Counter
  private readonly recordsNotStored: Counter
  private readonly repairs: Counter<'table'>
  private readonly pairBreaches: Gauge<'reason'>

  constructor(readonly registry: Registry = new Registry()) {
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers: [registry] })
    const histogram = (name: string, help: string, buckets: number[]) =>
      new Histogram<'consumer'>({ name, help, labelNames: ['consumer'], buckets, registers: [registry] })
    // Observed per row and per record: a histogram whose observe costs next to nothing.
    this.lag = new ConsumerHistogram('dev_stats_ingest_lag_seconds', 'EventTime to IngestionTime', LAG_BUCKETS, registry)
    this.arrival = new ConsumerHistogram('dev_stats_arrival_lag_seconds', 'Kafka record timestamp to rows inserted and side records published', LAG_BUCKETS, registry)
    this.size = histogram('dev_stats_ingest_batch_size', 'Rows per flushed batch', SIZE_BUCKETS)
    this.insertSeconds = histogram('dev_stats_insert_duration_seconds', 'Duration of one insert', [0.01, 0.05, 0.1, 0.5, 1, 5])
    this.dlq = counter('dev_stats_dlq_total', 'Records dead-lettered, by reason', ['consumer', 'reason'])
    this.skips = counter('dev_stats_skipped_total', 'Records skipped by rule, by reason', ['consumer', 'reason'])
    this.retries = counter('dev_stats_sink_retries_total', 'Failed insert/publish attempts retried', ['consumer'])
    this.parkedTotal = counter('dev_stats_parked_total', 'Records parked for a late dimension', ['consumer'])
    this.recovered = counter('dev_stats_parking_recovered_total', 'Parked records enriched on a later attempt', ['consumer'])
    this.gaps = counter('dev_stats_dimension_gap_total', 'Records dead-lettered after the last parking attempt (alert)', ['consumer'])
    this.unprovenGaps = counter('dev_stats_dimension_gap_unproven_total', "Dimension gaps dead-lettered after the maximum wait, the dimension consumers' progress unknown or behind", ['consumer'])
    this.mismatches = counter('dev_stats_contract_version_mismatch_total', 'Events whose ContractVersion is not the expected one', ['consumer'])
    this.partsRefusals = counter('dev_stats_store_too_many_parts_total', 'Inserts the store refused for too many active parts (ClickHouse code 252), retried', ['consumer'])
    this.budgetPauses = counter('dev_stats_memory_budget_pauses_total', "Times the consumer paused its partitions because the process's memory budget was spent", ['consumer'])
    this.outOfAssumption = counter('dev_stats_serving_out_of_assumption_total', "Facts stored outside the producers' assumptions the serving rows rest on, by reason (late: past DEV_STATS_SERVING_LATENESS_DAYS; long-session: linked under more than 32 days)", ['consumer', 'reason'])
    this.linkDrops = new Counter({ name: 'dev_stats_serving_link_partitions_dropped_total', help: 'Link-table monthly partitions dropped as older than the serving window (DEV_STATS_SERVING_LATENESS_DAYS + 33 days)', registers: [registry] })
    this.recordsNotStored = new Counter({ name: 'dev_stats_day_records_not_stored_total', help: 'Day records a read computed and could not store (it answered; a later read computes them again)', registers: [registry] })
    this.repairs = new Counter({ name: 'dev_stats_serving_repaired_rows_total', help: 'Serving rows the ingest missed, written by the reconciliation, by table', labelNames: ['table'], registers: [registry] })
    for (const table of ['developer_view_facts', 'developer_session_facts']) this.repairs.inc({ table }, 0)
    this.pairBreaches = new Gauge({ name: 'dev_stats_serving_assumption_breaches', help: "Views of the last three days outside the producers' assumptions that need both facts to tell (view-outside-session, view-rows-apart), as of the last reconciliation pass", labelNames: ['reason'], registers: [registry] })
    for (const reason of PAIR_BREACHES) this.pairBreaches.set({ reason }, 0)
    for (const table of FACT_TABLES) this.ingested.set(table, counter(`dev_stats_${table}_ingested_total`, `Rows inserted into ${table}`, ['consumer']))
  }

  /** Each consumer's counters at 0 (the per-table ones for the tables it writes, when known). */
  seed(consumers: readonly { readonly name: string; readonly tables?: readonly FactTable[] }[]): void {
    const perConsumer = [this.retries, this.parkedTotal, this.recovered, this.gaps, this.unprovenGaps, this.mismatches, this.partsRefusals, this.budgetPauses]
    for (const { name, tables = [] } of consumers) {
      for (const c of perConsumer) c.inc({ consumer: name }, 0)
      for (const t of tables) this.ingested.get(t)?.inc({ consumer: name }, 0)
      if (tables.includes('session_facts') || tables.includes('property_object_view_facts')) {
        for (const reason of ASSUMPTION_BREACHES) this.outOfAssumption.inc({ consumer: name, reason }, 0)
      }
    }
  }

  rowsIngested(consumer: string, table: FactTable, count: number): void {
    this.ingested.get(table)?.inc({ consumer }, count)
  }
  ingestLag(consumer: string, seconds: number): void {
    this.lag.observe(consumer, seconds)
  }
  arrivalLag(consumer: string, seconds: number): void {
    this.arrival.observe(consumer, seconds)
  }
  batchSize(consumer: string, rows: number): void {
    this.size.observe({ consumer }, rows)
  }
  insertDuration(consumer: string, seconds: number): void {
    this.insertSeconds.observe({ consumer }, seconds)
  }
  deadLettered(consumer: string, reason: string): void {
    this.dlq.inc({ consumer, reason })
  }
  skipped(consumer: string, reason: string): void {
    this.skips.inc({ consumer, reason })
  }
  sinkRetry(consumer: string): void {
    this.retries.inc({ consumer })
  }
  parked(consumer: string): void {
    this.parkedTotal.inc({ consumer })
  }
  recoveredFromParking(consumer: string): void {
    this.recovered.inc({ consumer })
  }
  dimensionGap(consumer: string): void {
    this.gaps.inc({ consumer })
  }
  dimensionGapUnproven(consumer: string): void {
    this.unprovenGaps.inc({ consumer })
  }
  contractVersionMismatch(consumer: string): void {
    this.mismatches.inc({ consumer })
  }
  tooManyParts(consumer: string): void {
    this.partsRefusals.inc({ consumer })
  }
  memoryBudgetPaused(consumer: string): void {
    this.budgetPauses.inc({ consumer })
  }
  servingOutOfAssumption(consumer: string, reason: AssumptionBreach): void {
    this.outOfAssumption.inc({ consumer, reason })
  }
  dayRecordsNotStored(): void {
    this.recordsNotStored.inc()
  }
  linkPartitionsDropped(count: number): void {
    this.linkDrops.inc(count)
  }
  servingRepaired(views: number, sessions: number): void {
    this.repairs.inc({ table: 'developer_view_facts' }, views)
    this.repairs.inc({ table: 'developer_session_facts' }, sessions)
  }
  servingBreaches(found: Readonly<Record<PairBreach, number>>): void {
    for (const reason of PAIR_BREACHES) this.pairBreaches.set({ reason }, found[reason])
  }
}
