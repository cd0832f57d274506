import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runInfraScript, runInfraScriptNonBlocking } from './infra-script.js'

/**
 * A ClickHouse server of a test's own (own ports and state dir), so the test may stop and start
 * it without touching the shared one on 18123.
 */
export class OwnClickHouse {
  private madeStateDir: string | undefined

  constructor(readonly httpPort: number, readonly tcpPort: number) {}

  /** Its state dir, made on first use: a test file may construct it while vitest only collects. */
  get stateDir(): string {
    return (this.madeStateDir ??= mkdtempSync(join(tmpdir(), 'dev-stats-own-clickhouse-')))
  }

  get url(): string {
    return `http://127.0.0.1:${this.httpPort}`
  }

  start(): void {
    this.run('start')
  }

  stop(): void {
    this.run('stop')
  }

  /** start() without blocking the event loop: an engine in this process keeps ingesting meanwhile. */
  startNonBlocking(): Promise<void> {
    return runInfraScriptNonBlocking('clickhouse-server.sh', 'start', this.scriptEnv(), 180_000)
  }

  /** stop() without blocking the event loop. */
  stopNonBlocking(): Promise<void> {
    return runInfraScriptNonBlocking('clickhouse-server.sh', 'stop', this.scriptEnv(), 180_000)
  }

  /** Stops it if running and removes its state. */
  dispose(): void {
    if (this.madeStateDir === undefined) return
    try {
      this.run('stop')
    } finally {
      rmSync(this.stateDir, { recursive: true, force: true })
    }
  }

  private run(command: 'start' | 'stop'): void {
    runInfraScript('clickhouse-server.sh', command, this.scriptEnv(), 180_000)
  }

  private scriptEnv(): Record<string, string> {
    return { CLICKHOUSE_HTTP_PORT: String(this.httpPort), CLICKHOUSE_TCP_PORT: String(this.tcpPort), CLICKHOUSE_STATE_DIR: this.stateDir }
  }
}
