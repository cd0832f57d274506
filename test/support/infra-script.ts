import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** `bash scripts/<name> <command>` with `env` added; throws with the script's output when it fails. */
export const runInfraScript = (name: string, command: string, env: Record<string, string>, timeoutMs = 240_000): void => {
  const script = fileURLToPath(new URL(`../../scripts/${name}`, import.meta.url))
  const r = spawnSync('bash', [script, command], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, ...env } })
  if (r.status !== 0) throw new Error(`scripts/${name} ${command} failed:\n${r.stdout}${r.stderr}${r.error ?? ''}`)
}
