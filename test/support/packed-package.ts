import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../..', import.meta.url))

/** A command that must succeed; its output, or an error carrying it. */
export const sh = (cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeout = 600_000): string => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...env, npm_config_audit: 'false', npm_config_fund: 'false' } })
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed with ${r.status ?? r.signal}:\n${output}`)
  return output
}

/**
 * `npm pack` of this repository into `dest` (its prepack builds dist/): the tarball's path. Under a
 * lock: test files running at once must not pack a dist/ another's build is rewriting.
 */
export const packTarball = (dest: string): string => {
  mkdirSync(join(repo, 'dist'), { recursive: true })
  sh('flock', [join(repo, 'dist', '.npm-pack.lock'), 'npm', 'pack', '--pack-destination', dest], repo)
  const tgz = readdirSync(dest).find((f) => f.startsWith('dev-stats-ingest-') && f.endsWith('.tgz'))
  if (!tgz) throw new Error('npm pack made no tarball')
  return join(dest, tgz)
}

/**
 * The environment of a machine with only node and npm: HOME and PATH, and the extra CA certificates
 * when set (a Node binary from nodejs.org trusts only its own CA list, not the system's).
 */
export const bareEnv = (path: string): NodeJS.ProcessEnv => ({
  HOME: process.env.HOME,
  PATH: path,
  ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
})

const TOOLS = ['node', 'npm', 'npx', 'sh', 'bash', 'env', 'cat', 'ls', 'mkdir', 'rm', 'cp', 'mv', 'ln', 'chmod', 'dirname', 'basename', 'readlink', 'realpath', 'uname', 'tar', 'gzip', 'sed', 'grep', 'head', 'tail', 'tr', 'sort', 'date', 'sleep', 'find', 'xargs', 'mktemp', 'touch', 'wc', 'cut', 'id']
const COMPILERS = ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python3', 'python']

/**
 * A directory for PATH holding node, npm and the shell tools they call, and no compiler, make or
 * python: a machine with only node and npm. `node` is the given binary (another Node version).
 */
export const bareBin = (dir: string, node = process.execPath): string => {
  mkdirSync(dir, { recursive: true })
  for (const t of TOOLS) {
    const found = t === 'node' ? node : spawnSync('sh', ['-c', `readlink -f "$(command -v ${t})"`], { encoding: 'utf8' }).stdout.trim()
    if (found && !existsSync(join(dir, t))) symlinkSync(found, join(dir, t))
  }
  const compiler = COMPILERS.find((c) => spawnSync('sh', ['-c', `command -v ${c}`], { env: { PATH: dir } }).status === 0)
  if (compiler) throw new Error(`${compiler} is on the bare PATH ${dir}`)
  return dir
}
