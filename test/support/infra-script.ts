import { execFile, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const scriptPath = (name: string): string => fileURLToPath(new URL(`../../scripts/${name}`, import.meta.url))

/** `bash scripts/<name> <command>` with `env` added; throws with the script's output when it fails. */
export const runInfraScript = (name: string, command: string, env: Record<string, string>, timeoutMs = 240_000): void => {
  const r = spawnSync('bash', [scriptPath(name), command], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, ...env } })
  if (r.status !== 0) throw new Error(`scripts/${name} ${command} failed:\n${r.stdout}${r.stderr}${r.error ?? ''}`)
}

/** The same without blocking the event loop: what runs in this process (an engine, a Kafka client) keeps running meanwhile. */
export const runInfraScriptNonBlocking = (name: string, command: string, env: Record<string, string>, timeoutMs = 240_000): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile('bash', [scriptPath(name), command], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`scripts/${name} ${command} failed:\n${stdout}${stderr}${String(error)}`))
      else resolve()
    })
  })
