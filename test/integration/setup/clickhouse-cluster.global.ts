import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// Starts the local ClickHouse cluster (ZooKeeper + two 18.16 replicas of one shard,
// scripts/clickhouse-cluster.sh) for the cluster suite, installing the packages if missing, and
// stops it afterwards if this setup started it. Fails loudly; the suite never skips itself.
const SCRIPT = fileURLToPath(new URL('../../../scripts/clickhouse-cluster.sh', import.meta.url))

const run = (command: string): { ok: boolean; output: string } => {
  const r = spawnSync('bash', [SCRIPT, command], { encoding: 'utf8', timeout: 20 * 60_000 })
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` }
}

const must = (command: string): void => {
  const r = run(command)
  if (!r.ok) throw new Error(`scripts/clickhouse-cluster.sh ${command} failed:\n${r.output}`)
}

export default function setup(): () => void {
  must('install')
  const wasRunning = run('status').ok
  // A cluster this run starts starts clean: replicas left from an earlier run would re-attach
  // their old replicated tables at start-up, and the ZooKeeper logs only grow.
  if (!wasRunning) must('reset')
  must('start')
  return () => {
    if (!wasRunning) must('stop')
  }
}
