import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../..', import.meta.url))

/** `npm run <script>` as a user types it, in the repository, with `env` on top of ours; its output and exit. */
export const npmRun = (args: readonly string[], env: Record<string, string>, timeoutMs = 120_000) => {
  const r = spawnSync('npm', ['run', '--silent', ...args], { cwd: repo, env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutMs })
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', output: `${r.stdout ?? ''}${r.stderr ?? ''}` }
}

/** `npm start` as a child process (own process group), its output collected as it comes. */
export class NpmStart {
  output = ''
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  private readonly child: ChildProcess

  /** `args`: the command's own, after `npm start --` (e.g. `--workers 2`). */
  constructor(env: Record<string, string>, args: readonly string[] = []) {
    this.child = spawn('npm', ['start', '--silent', ...(args.length > 0 ? ['--', ...args] : [])], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    this.child.stdout?.on('data', (d: Buffer) => void (this.output += d.toString()))
    this.child.stderr?.on('data', (d: Buffer) => void (this.output += d.toString()))
    // 'close': npm and every process that inherited its output (the service itself) are gone
    this.exited = new Promise((r) => this.child.once('close', (code, signal) => r({ code, signal })))
  }

  /** The process group (npm's pid): the service is the node process in it running `service.mjs`. */
  get group(): number {
    return this.child.pid as number
  }

  /** The first JSON log line whose msg matches, parsed. */
  logLine(msg: RegExp): Record<string, unknown> | undefined {
    for (const line of this.output.split('\n')) {
      if (!line.startsWith('{')) continue
      const entry = JSON.parse(line) as Record<string, unknown>
      if (msg.test(String(entry['msg']))) return entry
    }
    return undefined
  }

  /** SIGKILL to the process group: the service dies without leaving its groups or committing. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    process.kill(-(this.child.pid as number), 'SIGKILL')
    await this.exited
  }

  /**
   * SIGTERM to the process group, as Ctrl-C, systemd or a container runtime deliver it: npm's
   * `sh -c` does not pass a signal on to the service. SIGKILL to the group if it is not gone in time.
   */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return
    const group = -(this.child.pid as number)
    process.kill(group, 'SIGTERM')
    const timer = setTimeout(() => {
      try {
        process.kill(group, 'SIGKILL')
      } catch {
        // already gone
      }
    }, timeoutMs)
    await this.exited
    clearTimeout(timer)
  }
}
