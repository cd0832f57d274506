/** Command line and environment of `npm run bench:read`. */
export interface ReadBenchOptions {
  /** N × 100 developers, each owning the same data (--scale, default 1). */
  readonly scale: number
  /** Views and sessions a year of one heavy developer beside the regular ones (--heavy N, default 1,000,000; 0: none). */
  readonly heavy: number
  /** Run the uncached single reads only (--only-single or BENCH_ONLY_SINGLE=1). */
  readonly onlySingle: boolean
  /** The developer of the single reads (BENCH_DEVELOPER, default 7); the writer never writes its data. */
  readonly developer: number
  /** Single reads per route and contender after the warm-up (BENCH_SINGLE_READS, default 30). */
  readonly singleReads: number
  /** Warm-up rounds before them (BENCH_SINGLE_WARMUP, default 3). */
  readonly singleWarmup: number
  /** Load phases: seconds per route (BENCH_DURATION, default 20) and connections (BENCH_CONNECTIONS, default 50). */
  readonly duration: number
  readonly connections: number
}

export const USAGE = `usage: npm run bench:read -- [--scale N] [--heavy N] [--only-single]
  env: BENCH_KEEP=1 keeps the database, BENCH_DATABASE=<name> reuses one (loaded at the same --scale),
       BENCH_ONLY_SINGLE=1, BENCH_DEVELOPER, BENCH_SINGLE_READS, BENCH_SINGLE_WARMUP,
       BENCH_CACHE=<setting>, BENCH_ONLY=<route text>, BENCH_DURATION, BENCH_CONNECTIONS`

const whole = (raw: string | undefined, what: string, fallback: number, min = 0): number => {
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw.replace(/_/g, ''))
  if (!Number.isInteger(n) || n < min) throw new Error(`${what} must be a whole number ≥ ${min}, got "${raw}"\n${USAGE}`)
  return n
}

export const parseReadOptions = (argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ReadBenchOptions => {
  let scale: string | undefined
  let heavy: string | undefined
  let onlySingle = env.BENCH_ONLY_SINGLE === '1'
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--only-single') onlySingle = true
    else if (arg === '--scale') scale = argv[++i] ?? ''
    else if (arg?.startsWith('--scale=')) scale = arg.slice('--scale='.length)
    else if (arg === '--heavy') heavy = argv[++i] ?? ''
    else if (arg?.startsWith('--heavy=')) heavy = arg.slice('--heavy='.length)
    else throw new Error(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`)
  }
  const s = whole(scale, '--scale', 1, 1)
  if (s >= 10_000) throw new Error(`--scale must be below 10,000 (the heavy developer's index is above every regular one's), got ${s}`)
  const developer = whole(env.BENCH_DEVELOPER, 'BENCH_DEVELOPER', 7)
  if (developer >= 100) throw new Error(`BENCH_DEVELOPER must be one of the first 100 developers (there at every scale), got ${developer}`)
  return {
    scale: s,
    heavy: whole(heavy, '--heavy', 1_000_000),
    onlySingle,
    developer,
    singleReads: whole(env.BENCH_SINGLE_READS, 'BENCH_SINGLE_READS', 30, 1),
    singleWarmup: whole(env.BENCH_SINGLE_WARMUP, 'BENCH_SINGLE_WARMUP', 3),
    duration: whole(env.BENCH_DURATION, 'BENCH_DURATION', 20, 1),
    connections: whole(env.BENCH_CONNECTIONS, 'BENCH_CONNECTIONS', 50, 1),
  }
}
