import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const NAME = 'dev-stats-ingest'

/** This package's package.json, found upwards from this module: it runs from src/cli (tsx), dist/cli or the bundle in dist/. */
const manifest = (): { readonly version: string } => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (!existsSync(file)) continue
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string }
    if (pkg.name === NAME) return pkg
  }
  throw new Error(`the package.json of ${NAME} is not above ${fileURLToPath(import.meta.url)}`)
}

export const packageVersion = (): string => manifest().version
