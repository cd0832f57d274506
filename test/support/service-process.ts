import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** `start` of the CLI as a child process, its output kept. */
export interface ServiceProcess {
  readonly child: ChildProcess
  readonly output: string[]
  readonly url: string
}

export const startService = (env: Record<string, string>, port: number): ServiceProcess => {
  const output: string[] = []
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'start'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (b: Buffer) => output.push(b.toString()))
  child.stderr?.on('data', (b: Buffer) => output.push(b.toString()))
  return { child, output, url: `http://127.0.0.1:${port}` }
}

/** A GET's status and body; status 0 when nothing answers. */
export const get = async (url: string): Promise<{ status: number; body: string }> => {
  try {
    const r = await fetch(url)
    return { status: r.status, body: await r.text() }
  } catch (e) {
    return { status: 0, body: String(e) }
  }
}

/** The value of one sample line of the exposition text, or undefined. */
export const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** The sum of every sample line starting with `prefix`. */
export const sumOf = (text: string, prefix: string): number =>
  text.split('\n').filter((l) => l.startsWith(prefix)).reduce((a, l) => a + Number(l.split(' ').at(-1)), 0)
