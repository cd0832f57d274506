import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CLUSTER, replicaUrl } from '../../support/clickhouse-cluster.js'

// Starts the local ClickHouse cluster (ZooKeeper + two 18.16 replicas of one shard,
// scripts/clickhouse-cluster.sh) for the cluster suite, installing the packages if missing, and
// stops it afterwards if this setup started it. Fails loudly; the suite never skips itself.
const SCRIPT = fileURLToPath(new URL('../../../scripts/clickhouse-cluster.sh', import.meta.url))
const PROBE_DATABASE = 'dev_stats_ddl_probe'
/** The server answers an unfinished ON CLUSTER query after this long (it would wait 180 s). */
const DDL_TIMEOUT_SECONDS = 60

const run = (command: string): { ok: boolean; output: string } => {
  const r = spawnSync('bash', [SCRIPT, command], { encoding: 'utf8', timeout: 20 * 60_000 })
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` }
}

const must = (command: string): void => {
  const r = run(command)
  if (!r.ok) throw new Error(`scripts/clickhouse-cluster.sh ${command} failed:\n${r.output}`)
}

/** An error text when an ON CLUSTER statement does not finish on both replicas, else undefined. */
const ddl = async (statement: string): Promise<string | undefined> => {
  try {
    const response = await fetch(`${replicaUrl(1)}/?distributed_ddl_task_timeout=${DDL_TIMEOUT_SECONDS}`, {
      method: 'POST',
      body: statement,
      signal: AbortSignal.timeout((DDL_TIMEOUT_SECONDS + 30) * 1000),
    })
    return response.ok ? undefined : `${statement}: HTTP ${response.status} ${(await response.text()).slice(0, 500)}`
  } catch (e) {
    return `${statement}: ${String(e)}`
  }
}

/** Whether the cluster runs distributed DDL: every case starts with one (resetDatabase). */
const ddlProbe = async (): Promise<string | undefined> =>
  (await ddl(`CREATE DATABASE IF NOT EXISTS ${PROBE_DATABASE} ON CLUSTER ${CLUSTER}`)) ?? (await ddl(`DROP DATABASE IF EXISTS ${PROBE_DATABASE} ON CLUSTER ${CLUSTER}`))

export default async function setup(): Promise<() => void> {
  must('install')
  const wasRunning = run('status').ok
  // A cluster this run starts starts clean: replicas left from an earlier run would re-attach
  // their old replicated tables at start-up, and the ZooKeeper logs only grow.
  if (!wasRunning) must('reset')
  must('start')
  let failed = await ddlProbe()
  // A cluster left running by an earlier run whose DDL queue is stuck would fail every case's
  // set-up at its timeout, one after another: it is started clean once.
  if (failed && wasRunning) {
    console.warn(`[cluster] the running cluster does not finish distributed DDL (${failed}); resetting it`)
    must('reset')
    must('start')
    failed = await ddlProbe()
  }
  if (failed) throw new Error(`the local cluster does not finish distributed DDL within ${DDL_TIMEOUT_SECONDS} s: ${failed}`)
  return () => {
    if (!wasRunning) must('stop')
  }
}
