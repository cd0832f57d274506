import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

// Starts the local ClickHouse server (scripts/clickhouse-server.sh) for the integration suite:
// installs it if missing, starts it if it does not answer, and stops it afterwards only if this
// setup started it. Fails loudly with the script's output; the suite never skips itself.

declare module 'vitest' {
  export interface ProvidedContext {
    clickhouseUrl: string
  }
}

const SCRIPT = fileURLToPath(new URL('../../../scripts/clickhouse-server.sh', import.meta.url))
const PORT = process.env.CLICKHOUSE_HTTP_PORT ?? '18123'
export const CLICKHOUSE_URL = `http://127.0.0.1:${PORT}`

const run = (command: string): { ok: boolean; output: string } => {
  const r = spawnSync('bash', [SCRIPT, command], { encoding: 'utf8', timeout: 20 * 60_000 })
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` }
}

const must = (command: string): void => {
  const r = run(command)
  if (!r.ok) throw new Error(`scripts/clickhouse-server.sh ${command} failed:\n${r.output}`)
}

export default function setup(project: TestProject): () => void {
  must('install')
  const wasRunning = run('status').ok
  if (!wasRunning) must('start')
  process.env.DEV_STATS_CLICKHOUSE_URL = CLICKHOUSE_URL
  project.provide('clickhouseUrl', CLICKHOUSE_URL)
  return () => {
    if (!wasRunning) must('stop')
  }
}
