// Top self-time functions of a V8 CPU profile (node --cpu-prof; bench:e2e --profile DIR):
//   npx tsx bench/e2e/profile-top.ts <file.cpuprofile> [how many, default 30]
import { readFileSync } from 'node:fs'

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}
interface Profile {
  readonly nodes: readonly ProfileNode[]
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

const [file, howMany = '30'] = process.argv.slice(2)
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [n]')
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const frameOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
const selfUs = new Map<string, number>()
let total = 0
profile.samples.forEach((id, i) => {
  const f = frameOf.get(id)
  const dt = profile.timeDeltas[i] ?? 0
  total += dt
  if (!f) return
  const where = f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/')
  const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`
  selfUs.set(key, (selfUs.get(key) ?? 0) + dt)
})
const byPackage = new Map<string, number>()
for (const [key, us] of selfUs) {
  const where = key.split('  ')[1] ?? ''
  const pkg = where.startsWith('src/') ? where.split('/').slice(0, 3).join('/') : where.startsWith('@') ? where.split('/').slice(0, 2).join('/') : where.split('/')[0] || '(native/gc/idle)'
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us)
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`
console.log(`total ${(total / 1e6).toFixed(1)} s sampled\n\nself time by function:`)
for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, Number(howMany))) console.log(`${pct(us)}  ${key}`)
console.log('\nself time by package / folder:')
for (const [pkg, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(us)}  ${pkg}`)
