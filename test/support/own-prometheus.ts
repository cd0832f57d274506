import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface PromSeries {
  readonly metric: Record<string, string>
}

export type QueryAnswer =
  | { readonly ok: true; readonly series: readonly PromSeries[] }
  | { readonly ok: false; readonly error: string }

/** Debian's `prometheus` (scripts/promtool.sh installs the package when missing); throws when it cannot be had. */
export const requirePrometheus = (): void => {
  const r = spawnSync('bash', ['scripts/promtool.sh', 'install'], { cwd: ROOT, encoding: 'utf8', timeout: 15 * 60_000 })
  if (r.status !== 0) throw new Error(`Debian's prometheus package is missing and could not be installed:\n${r.stdout}${r.stderr}`)
  const v = spawnSync('prometheus', ['--version'], { encoding: 'utf8' })
  if (v.status !== 0) throw new Error(`prometheus does not run: ${v.stderr}${v.error ?? ''}`)
}

/**
 * A Prometheus server of a test's own: loopback port, own storage dir, one scrape job, the given
 * rule files, scraping and evaluating every second.
 */
export class OwnPrometheus {
  readonly dir = mkdtempSync(join(tmpdir(), 'dev-stats-prometheus-'))
  output = ''
  private child: ChildProcess | undefined

  constructor(readonly port: number, private readonly target: string, private readonly ruleFiles: readonly string[]) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  async start(timeoutMs = 30_000): Promise<void> {
    const config = join(this.dir, 'prometheus.yml')
    writeFileSync(config, [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      ...this.ruleFiles.map((f) => `  - ${JSON.stringify(f)}`),
      'scrape_configs:',
      '  - job_name: dev-stats',
      '    static_configs:',
      `      - targets: [${JSON.stringify(this.target)}]`,
      '',
    ].join('\n'))
    this.child = spawn('prometheus', [
      `--config.file=${config}`, `--storage.tsdb.path=${join(this.dir, 'data')}`, `--web.listen-address=127.0.0.1:${this.port}`,
    ], { stdio: ['ignore', 'pipe', 'pipe'] })
    this.child.stdout?.on('data', (d: Buffer) => void (this.output += d.toString()))
    this.child.stderr?.on('data', (d: Buffer) => void (this.output += d.toString()))
    const deadline = Date.now() + timeoutMs
    while (!(await fetch(`${this.url}/-/ready`).then((r) => r.ok, () => false))) {
      if (this.child.exitCode !== null || Date.now() > deadline) throw new Error(`prometheus did not get ready:\n${this.output.slice(-3000)}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  /** An instant query through the HTTP API: the series it returns, or Prometheus' error (e.g. a parse error). */
  async query(expr: string): Promise<QueryAnswer> {
    const r = await fetch(`${this.url}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: expr }) })
    const body = (await r.json()) as { status: string; error?: string; data?: { resultType: string; result: PromSeries[] } }
    if (body.status !== 'success') return { ok: false, error: body.error ?? `HTTP ${r.status}` }
    return { ok: true, series: body.data?.resultType === 'vector' || body.data?.resultType === 'matrix' ? body.data.result : [] }
  }

  async get<T>(path: string): Promise<T> {
    const r = await fetch(`${this.url}${path}`)
    return ((await r.json()) as { data: T }).data
  }

  async stop(): Promise<void> {
    const child = this.child
    if (child && child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await gone
    }
    rmSync(this.dir, { recursive: true, force: true })
  }
}
