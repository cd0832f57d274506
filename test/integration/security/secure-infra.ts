import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { KafkaOptions } from '../../../src/adapters/kafka/shared/kafka-options.js'
import { loadConfig } from '../../../src/composition/config.js'

// The secured Kafka (SASL_SSL SCRAM-SHA-512 on 29094) and ClickHouse (HTTPS on 18443) of
// scripts/secure-infra.sh: separate servers with their own ports and state, started by the test
// that needs them and stopped again if it started them. Fails loudly with the script's output.
export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const SCRIPT = resolve(repo, 'scripts/secure-infra.sh')

const script = (command: string, timeout = 600_000): { ok: boolean; output: string } => {
  const r = spawnSync('bash', [SCRIPT, command], { cwd: repo, encoding: 'utf8', timeout })
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` }
}

const must = (command: string): string => {
  const r = script(command)
  if (!r.ok) throw new Error(`scripts/secure-infra.sh ${command} failed:\n${r.output}`)
  return r.output
}

/** Starts what is not running; returns a stop function that stops only what this call started. */
export const startSecureInfra = (): (() => void) => {
  const wasRunning = script('status', 120_000).ok
  if (!wasRunning) must('start')
  return () => {
    if (!wasRunning) must('stop')
  }
}

/** The DEV_STATS_* settings for the SASL_SSL listener and the HTTPS port (`secure-infra.sh env`). */
export const secureEnv = (): Record<string, string> =>
  Object.fromEntries(must('env').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))

export const secrets = (env: Record<string, string>): string[] =>
  [env.DEV_STATS_KAFKA_SASL_PASSWORD_FILE, env.DEV_STATS_CLICKHOUSE_PASSWORD_FILE].map((f) => readFileSync(f as string, 'utf8').trim())

/** Broker adapter options for the secured listener, from the same settings the service reads. */
export const secureKafkaOptions = (env: Record<string, string>): KafkaOptions => {
  const { kafka } = loadConfig(env)
  return { ...kafka, clientId: 'dev-stats-secure-test', sessionTimeoutMs: 6000, maxWaitMs: 200 }
}

export const secureClickHouse = (env: Record<string, string>) => serverSession(loadConfig(env).clickhouse)

export interface Run {
  readonly code: number | null
  readonly output: string
  readonly ms: number
}

/** A command of the project (`npm start`, `npm run migrate`…) as a child process with these settings. */
export class Child {
  output = ''
  readonly exited: Promise<Run>
  private readonly child

  constructor(command: readonly string[], env: Record<string, string>) {
    const t0 = Date.now()
    this.child = spawn(command[0] as string, command.slice(1), { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    this.child.stdout.on('data', (d: Buffer) => void (this.output += d.toString()))
    this.child.stderr.on('data', (d: Buffer) => void (this.output += d.toString()))
    this.exited = new Promise((r) => this.child.once('exit', (code) => r({ code, output: this.output, ms: Date.now() - t0 })))
  }

  async waitFor(text: string, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!this.output.includes(text)) {
      if (this.child.exitCode !== null || Date.now() > deadline) throw new Error(`no "${text}" in the output:\n${this.output}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  async stop(): Promise<Run> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM')
    return this.exited
  }
}

export const npm = (args: readonly string[], env: Record<string, string>): Promise<Run> => new Child(['npm', '--silent', ...args], env).exited

/** What `npm start` runs (`tsx src/cli/main.ts start`), without npm in between, so that SIGTERM reaches the service itself. */
export const service = (env: Record<string, string>): Child => new Child([process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'start'], env)
