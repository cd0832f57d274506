/**
 * The end check's comparisons, pure: expected (from the ledger) against what the store and the
 * dead-letter topics hold. Each gives one row of the report's table.
 */
export interface CheckRow {
  readonly check: string
  readonly expected: number
  readonly found: number
  readonly missing: number
  readonly extra: number
  /** Differences that are neither missing nor extra (a wrong count, name, version or reason). */
  readonly wrong: number
  readonly note: string
  /** The first few differences (the report shows them). */
  readonly samples: readonly string[]
  /** Up to 10,000 differences, for DIR/mismatches.json. */
  readonly details: readonly string[]
  readonly pass: boolean
}

const MAX_SAMPLES = 5
const MAX_DETAILS = 10_000

const row = (check: string, expected: number, found: number, missing: number, extra: number, wrong: number, samples: string[], note = ''): CheckRow => ({
  check, expected, found, missing, extra, wrong, note, samples: samples.slice(0, MAX_SAMPLES), details: samples.slice(0, MAX_DETAILS), pass: missing === 0 && extra === 0 && wrong === 0,
})

/**
 * Two ascending streams of distinct keys (facts: FactId with the fields it must carry), merged:
 * a key only expected is missing, a key only found is extra. Constant memory, so an hour of
 * facts never has to fit in a Set.
 */
export const compareSortedKeys = async (
  check: string, expected: AsyncIterable<string> | Iterable<string>, found: AsyncIterable<string> | Iterable<string>, note = '',
): Promise<CheckRow> => {
  const e = ascending(check, expected)
  const f = ascending(check, found)
  let a = await e.next()
  let b = await f.next()
  let nExpected = 0
  let nFound = 0
  let missing = 0
  let extra = 0
  const samples: string[] = []
  while (!a.done || !b.done) {
    if (!a.done && (b.done || a.value < b.value)) {
      nExpected++
      missing++
      if (samples.length < MAX_DETAILS) samples.push(`missing ${a.value}`)
      a = await e.next()
    } else if (!b.done && (a.done || b.value < a.value)) {
      nFound++
      extra++
      if (samples.length < MAX_DETAILS) samples.push(`extra ${b.value}`)
      b = await f.next()
    } else {
      nExpected++
      nFound++
      a = await e.next()
      b = await f.next()
    }
  }
  return row(check, nExpected, nFound, missing, extra, 0, samples, note)
}

/** The keys one by one, refusing a stream that is not strictly ascending (the merge would lie). */
async function* ascending(check: string, source: AsyncIterable<string> | Iterable<string>): AsyncGenerator<string> {
  let last: string | undefined
  for await (const k of source) {
    if (last !== undefined && k <= last) throw new Error(`${check}: keys not ascending and distinct at ${k} after ${last}`)
    last = k
    yield k
  }
}

/** A counted group: funnel stage counts per (object, developer, day, stage). */
export interface GroupCount {
  readonly group: string
  readonly count: number
}

/** Every group's count as expected; a group with count 0 is as good as absent. */
export const compareCounts = (check: string, expected: readonly GroupCount[], found: readonly GroupCount[], note = ''): CheckRow => {
  const want = new Map(expected.filter((g) => g.count > 0).map((g) => [g.group, g.count]))
  const got = new Map(found.filter((g) => g.count > 0).map((g) => [g.group, g.count]))
  let missing = 0
  let extra = 0
  let wrong = 0
  const samples: string[] = []
  for (const [group, count] of want) {
    const c = got.get(group)
    if (c === undefined) {
      missing++
      samples.push(`missing ${group} (${count})`)
    } else if (c !== count) {
      wrong++
      samples.push(`${group}: ${c}, expected ${count}`)
    }
  }
  for (const [group, count] of got) {
    if (!want.has(group)) {
      extra++
      samples.push(`extra ${group} (${count})`)
    }
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0)
  return row(check, sum(want), sum(got), missing, extra, wrong, samples, note || `${want.size} groups`)
}

/** The latest version of one dimension id: argMax(Name, Version) and max(Version). */
export interface DimLatest {
  readonly table: string
  readonly id: string
  readonly name: string
  readonly version: number
}

export const compareDims = (check: string, expected: readonly DimLatest[], found: readonly DimLatest[]): CheckRow => {
  const key = (d: DimLatest) => `${d.table}/${d.id}`
  const got = new Map(found.map((d) => [key(d), d]))
  const wantKeys = new Set(expected.map(key))
  let missing = 0
  let wrong = 0
  const samples: string[] = []
  for (const d of expected) {
    const g = got.get(key(d))
    if (!g) {
      missing++
      samples.push(`missing ${key(d)}`)
    } else if (g.name !== d.name || g.version !== d.version) {
      wrong++
      samples.push(`${key(d)}: ${g.name} @${g.version}, expected ${d.name} @${d.version}`)
    }
  }
  const extras = found.filter((d) => !wantKeys.has(key(d)))
  for (const d of extras) samples.push(`extra ${key(d)}`)
  return row(check, expected.length, found.length, missing, extras.length, wrong, samples, 'latest version per id by argMax')
}

/** A record the soak expects on a .dlq topic, and one found there (by its soak-seq header). */
export interface DeadLetter {
  readonly seq: number
  readonly reason: string
  readonly consumer: string
}

/**
 * Every expected dead letter present with its reason; nothing else dead-lettered. A record may
 * be dead-lettered more than once (at least once: a crash before the commit), which is counted,
 * not failed; a second copy with another reason is wrong.
 */
export const compareDeadLetters = (check: string, expected: readonly DeadLetter[], found: readonly DeadLetter[]): CheckRow => {
  const want = new Map(expected.map((d) => [d.seq, d]))
  const got = new Map<number, DeadLetter[]>()
  for (const d of found) got.set(d.seq, [...(got.get(d.seq) ?? []), d])
  let missing = 0
  let wrong = 0
  let extra = 0
  let repeated = 0
  const samples: string[] = []
  for (const d of want.values()) {
    const copies = got.get(d.seq)
    if (!copies) {
      missing++
      samples.push(`missing #${d.seq} ${d.consumer} ${d.reason}`)
      continue
    }
    repeated += copies.length - 1
    const off = copies.find((c) => c.reason !== d.reason || c.consumer !== d.consumer)
    if (off) {
      wrong++
      samples.push(`#${d.seq}: ${off.consumer} ${off.reason}, expected ${d.consumer} ${d.reason}`)
    }
  }
  for (const [seq, copies] of got) {
    if (!want.has(seq)) {
      extra += copies.length
      samples.push(`extra #${seq} ${copies[0]?.consumer} ${copies[0]?.reason}`)
    }
  }
  return row(check, expected.length, found.length, missing, extra, wrong, samples, `${repeated} dead-lettered more than once`)
}

/** A SIGTERM's outcome: exit 0, or (only while the broker was down and the groups cannot be left) anything. */
export interface StopOutcome {
  readonly label: string
  readonly code: number | null
  readonly signal: string | null
  readonly seconds: number
  readonly brokerDown: boolean
  /** A wire fault was on while it stopped. */
  readonly wireFault?: boolean
  /** It logged that its stop ran past DEV_STATS_STOP_TIMEOUT_SECONDS and exited 1. */
  readonly deadline?: boolean
}

/**
 * Exit 0 on SIGTERM; tolerated: an unclean stop while the broker was down (it cannot leave the
 * groups), and exit 1 at the service's own stop deadline while a wire fault held (a link that
 * carries nothing may hold a stop for ever: the deadline is what bounds it).
 */
export const compareStops = (stops: readonly StopOutcome[]): CheckRow => {
  const unclean = stops.filter((s) => s.code !== 0)
  const why = (s: StopOutcome) => (s.brokerDown ? 'broker down' : s.deadline && s.code === 1 && s.wireFault ? 'its stop deadline, under a wire fault' : undefined)
  const failing = unclean.filter((s) => why(s) === undefined)
  const samples = unclean.map((s) => `${s.label}: ${s.code ?? s.signal} after ${s.seconds.toFixed(1)} s${why(s) ? ` (${why(s)}: tolerated)` : ''}`)
  const slowest = Math.max(0, ...stops.map((s) => s.seconds))
  return row('SIGTERM: clean exit (0)', stops.length, stops.length - unclean.length, 0, 0, failing.length, samples, `slowest stop ${slowest.toFixed(1)} s; ${unclean.length - failing.length} unclean while the broker was down or at the stop deadline under a wire fault`)
}

/** Instances that exited without being killed or stopped by the soak: each one is a crash. */
export const compareCrashes = (crashes: readonly string[]): CheckRow =>
  row('no instance exits on its own', 0, crashes.length, 0, crashes.length, 0, [...crashes], 'a crash is restarted (as a supervisor would) and counted here')
