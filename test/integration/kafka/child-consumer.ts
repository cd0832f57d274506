import { spawn, type ChildProcess } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { KafkaAdapter } from '../../support/kafka.js'

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '../../..')

/** consumer-process.ts running under `node --import tsx`, so that its pid is the consumer itself. */
export class ChildConsumer {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly ready: Promise<void>
  output = ''
  private readonly child: ChildProcess

  constructor(adapter: KafkaAdapter, env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', resolve(here, 'consumer-process.ts')], {
      cwd: repo,
      env: { ...process.env, DEV_STATS_BROKER: adapter, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.exited = new Promise((r) => this.child.once('exit', (code, signal) => r({ code, signal })))
    this.ready = new Promise((resolveReady, reject) => {
      const timer = setTimeout(() => reject(new Error(`child not ready in 60 s:\n${this.output}`)), 60_000)
      this.child.stdout?.on('data', (d: Buffer) => {
        this.output += d.toString()
        if (this.output.includes('ready')) {
          clearTimeout(timer)
          resolveReady()
        }
      })
      this.child.stderr?.on('data', (d: Buffer) => {
        this.output += d.toString()
      })
      void this.exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`child exited before ready:\n${this.output}`))
      })
    })
    this.ready.catch(() => undefined)
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal)
    await this.exited
  }
}
