import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
/** Command line of `npm run bench:e2e`. */
export interface BenchOptions {
  /** Backlog size produced once before the consumers start (default 200,000). */
  readonly records: number
  /** Steady mode: records/s produced while each consumer runs (0 = backlog mode). */
  readonly steady: number
  /** Steady mode: how long each consumer is fed. */
  readonly seconds: number
  /** Which consumers to run: engine, kafkajs, confluent. */
  readonly only: readonly Contender[]
  /** Extra lines per client, one per DEV_STATS_BATCH_MAX_ROWS given (--big-batch 5000,20000). */
  readonly bigBatch: readonly number[]
  /** Write a V8 CPU profile of each service child into this directory. */
  readonly profileDir: string | undefined
  /** Keep each service's log in this directory. */
  readonly logDir: string | undefined
  /**
   * Other checkouts (e.g. git worktrees of the commits before a change, node_modules linked):
   * each service line runs also from each of them, in order, just before this checkout's.
   */
  readonly against: readonly string[]
  /** Runs every contender this many times over the same backlog; each line shows the median round. */
  readonly rounds: number
  /**
   * Store history sizes (--history 0,4): before a service consumes, its database is pre-loaded
   * with bench:read's data at that scale (0: empty), so the ingest's lookups run against a store
   * with history; the service lines run once per size. Empty: no pre-load (as before).
   */
  readonly history: readonly number[]
  /** --all-topics: the backlog on all 16 topics in the soak's traffic shares (service lines only). */
  readonly allTopics: boolean
  /** --reads RATE: one developer's reads through the read API during each service line's catch-up (0: none). */
  readonly reads: number
  /** --workers 1,2 (--all-topics): each service line once per count, as `npm start -- --workers N`. */
  readonly workers: readonly number[]
}

export type Contender = 'engine' | 'kafkajs' | 'confluent'
const CONTENDERS: readonly Contender[] = ['engine', 'kafkajs', 'confluent']

const USAGE = `usage: npm run bench:e2e -- [--records N] [--steady RATE [--seconds S]] [--only engine,kafkajs,confluent]
                              [--big-batch ROWS[,ROWS…]] [--profile DIR] [--logs DIR] [--against CHECKOUT[,CHECKOUT…]] [--rounds N]
                              [--history SCALE[,SCALE…]] [--all-topics [--workers N[,N…]]] [--reads RATE]   (env BENCH_HISTORY_DATABASES=<kept bench:read databases> reuses loads)`

export const parseOptions = (all: readonly string[]): BenchOptions => {
  const argv = all.filter((a) => a !== '--all-topics')
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]]
    if (!name?.startsWith('--') || value === undefined) throw new Error(USAGE)
    flags.set(name.slice(2), value)
  }
  const num = (name: string, fallback: number): number => {
    const raw = flags.get(name)
    if (raw === undefined) return fallback
    const n = Number(raw.replace(/_/g, ''))
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer\n${USAGE}`)
    return n
  }
  const only = (flags.get('only') ?? CONTENDERS.join(',')).split(',') as Contender[]
  if (only.some((c) => !CONTENDERS.includes(c))) throw new Error(`--only takes ${CONTENDERS.join(',')}\n${USAGE}`)
  const known = new Set(['records', 'steady', 'seconds', 'only', 'big-batch', 'profile', 'logs', 'against', 'rounds', 'history', 'reads', 'workers'])
  for (const name of flags.keys()) if (!known.has(name)) throw new Error(`unknown option --${name}\n${USAGE}`)
  const allTopics = all.includes('--all-topics')
  if (flags.has('workers') && !allTopics) throw new Error(`--workers goes with --all-topics\n${USAGE}`)
  return {
    allTopics,
    records: num('records', 200_000),
    reads: num('reads', 0),
    steady: num('steady', 0),
    seconds: num('seconds', 20),
    only,
    bigBatch: (flags.get('big-batch') ?? '').split(',').filter((v) => v !== '').map((v) => {
      const n = Number(v.replace(/_/g, ''))
      if (!Number.isInteger(n) || n < 1) throw new Error(`--big-batch takes row counts, e.g. 5000,20000\n${USAGE}`)
      return n
    }),
    profileDir: directory(flags.get('profile')),
    logDir: directory(flags.get('logs')),
    against: (flags.get('against') ?? '').split(',').filter((p) => p !== '').map(checkout),
    rounds: Math.max(1, num('rounds', 1)),
    workers: (flags.get('workers') ?? '1').split(',').map((v) => {
      const n = Number(v)
      if (!Number.isInteger(n) || n < 1 || !/^\d+$/.test(v)) throw new Error(`--workers takes worker counts, e.g. 1,2\n${USAGE}`)
      return n
    }),
    history: (flags.get('history') ?? '').split(',').filter((v) => v !== '').map((v) => {
      const n = Number(v)
      if (!Number.isInteger(n) || n < 0 || !/^\d+$/.test(v)) throw new Error(`--history takes bench:read scales, 0 for an empty store, e.g. 0,4\n${USAGE}`)
      return n
    }).filter((n, i, all) => all.indexOf(n) === i),
  }
}

/** Made up front: a missing directory used to fail only after the service was spawned, orphaning it. */
const directory = (path: string | undefined): string | undefined => (path === undefined ? undefined : (mkdirSync(path, { recursive: true }), path))

const checkout = (path: string): string => {
  const dir = resolve(path)
  if (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'node_modules'))) throw new Error(`--against ${path}: not a checkout with package.json and node_modules\n${USAGE}`)
  return dir
}
