import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// package.json's `start` as the benches run it themselves: "[NAME=value …] exec node <flags> <entry>".

/** `NAME=${NAME:-default}` as the shell expands it in the start line: the caller's value, else the default. */
const expand = (value: string, env: NodeJS.ProcessEnv): string =>
  value.replace(/\$\{(\w+):-([^}]*)\}/g, (_, name: string, fallback: string) => env[name] || fallback)

export interface StartLine {
  /** The leading variable assignments, expanded against the caller's environment. */
  readonly env: Record<string, string>
  /** node's arguments: its flags, then the entry point. */
  readonly args: string[]
}

/** The npm scripts of the checkout at `repo`. */
export const scriptsOf = (repo: string): { readonly prestart?: string; readonly start: string } =>
  (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: { prestart?: string; start: string } }).scripts

/** The `start` script of the checkout at `repo`. */
export const startScript = (repo: string): string => scriptsOf(repo).start

export const parseStartLine = (script: string, callerEnv: NodeJS.ProcessEnv = process.env): StartLine => {
  const words = script.trim().split(/\s+/)
  const env: Record<string, string> = {}
  while (words[0] !== undefined && /^\w+=/.test(words[0])) {
    const [name, ...value] = (words.shift() as string).split('=')
    env[name as string] = expand(value.join('='), callerEnv)
  }
  if (words[0] === 'exec') words.shift()
  const [command, ...args] = words
  if (command !== 'node') throw new Error(`the benches run npm start's command themselves and expect it to start with node: "${script}"`)
  return { env, args }
}
