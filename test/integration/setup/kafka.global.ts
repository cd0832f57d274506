import { spawnSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// Owned by the Kafka work: fetches Apache Kafka, starts the local broker and creates the topics of
// the consumer registry (npm run topics). Fails loudly (with the script's output) rather than skipping suites.
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const script = resolve(repo, 'scripts/kafka-broker.sh')

const run = (command: string): string => {
  const r = spawnSync('bash', [script, command], { cwd: repo, encoding: 'utf8', timeout: 600_000 })
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`
  if (r.status !== 0) {
    throw new Error(`scripts/kafka-broker.sh ${command} failed (exit ${r.status ?? r.signal}):\n${output}${r.error ? `\n${String(r.error)}` : ''}`)
  }
  return output
}

const running = (): boolean => spawnSync('bash', [script, 'status'], { cwd: repo, encoding: 'utf8', timeout: 60_000 }).status === 0

export default async function setup(): Promise<() => Promise<void>> {
  const wasRunning = running()
  run('fetch')
  run('start')
  run('create-topics')
  return async () => {
    // Only a broker this run started is stopped; a developer's running broker is left alone.
    if (!wasRunning) run('stop')
  }
}
