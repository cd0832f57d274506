// `npm start`'s prestart: bundles src/cli/main.ts (the dev-stats-ingest command) into dist/service.mjs, only when a source is newer.
// One bundled file loads in ~0.2 s; the same modules through tsx's loader take ~0.45 s of every start.
// The pure-JavaScript packages are bundled too: resolving, reading and lexing each of their files
// cost ~0.4 CPU s of every start (1.4–1.7 → 1.0–1.2 s until "consuming", kafkajs). Left as installed:
// the native clients and chdb; kafkajs, whose internal modules kafkajs-record-decoder.ts and
// kafkajs-request-queue.ts replace through require.cache; pino, whose transports load by path in
// worker threads; @opentelemetry/api, a peer dependency shared with the host's SDK.
// Written to a temp file and renamed, so that two starts at once never read half a bundle.
import { build } from 'esbuild'
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const out = join(root, 'dist', 'service.mjs')
const AS_INSTALLED = ['kafkajs', '@confluentinc/kafka-javascript', 'chdb', 'pino', '@opentelemetry/api']
const inputs = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle-service.mjs']

const newest = (path) => {
  if (!existsSync(path)) return 0
  const s = statSync(path)
  return s.isDirectory() ? Math.max(0, ...readdirSync(path).map((n) => newest(join(path, n)))) : s.mtimeMs
}

const built = existsSync(out) ? statSync(out).mtimeMs : -1
if (Math.max(...inputs.map((p) => newest(join(root, p)))) >= built) {
  const tmp = `${out}.${process.pid}.tmp`
  await build({
    entryPoints: [join(root, 'src', 'cli', 'main.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: AS_INSTALLED.flatMap((name) => [name, `${name}/*`]),
    // CommonJS packages inside an ES module bundle call require(): give them Node's.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    keepNames: true,
    logLevel: 'warning',
  })
  renameSync(tmp, out)
}
