// The floor both benches print: the least work any consumer of these records must do, decoding
// the payload (UTF-8 decode + JSON.parse), in CPU µs per record, best of 5 rounds of 100,000
// session-ended payloads as bench:e2e produces them. It runs in a process of its own (a fresh
// heap, nothing else on its event loop), so its figure does not depend on the caller's state:
//   node --import tsx bench/floor.ts            prints {"usPerRecord":…,"rounds":[…],"records":…}
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { payloadOf } from './e2e/records.js'

export interface Floor {
  /** CPU µs (user + system) per record of the best round. */
  readonly usPerRecord: number
  /** Each round's CPU µs per record, in order. */
  readonly rounds: readonly number[]
  readonly records: number
}

export const FLOOR_RECORDS = 100_000
export const FLOOR_ROUNDS = 5

/** Times `rounds` passes of decode + parse over `values`; CPU time, not wall time. */
export const measureFloor = (values: readonly Uint8Array[], rounds = FLOOR_ROUNDS): Floor => {
  const utf8 = new TextDecoder()
  const each: number[] = []
  let parsed = 0
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage()
    for (let i = 0; i < values.length; i++) if (JSON.parse(utf8.decode(values[i]))) parsed++
    const used = process.cpuUsage(before)
    each.push((used.user + used.system) / values.length)
  }
  if (parsed !== rounds * values.length) throw new Error(`floor parsed ${parsed} of ${rounds * values.length}`)
  return { usPerRecord: Math.min(...each), rounds: each, records: values.length }
}

/** bench:e2e's payloads (records.ts), encoded as the producer sends them. */
export const floorPayloads = (n = FLOOR_RECORDS): Uint8Array[] => {
  const enc = new TextEncoder()
  const createdAt = new Date(Date.now() - 3_600_000).toISOString()
  return Array.from({ length: n }, (_, i) => enc.encode(JSON.stringify(payloadOf(i, createdAt))))
}

/** The caller's module loader flags (tsx's), nothing else: an `-e` among them would run the caller again. */
const loaderFlags = (): string[] => {
  const flags: string[] = []
  const argv = process.execArgv
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    if (/^--(import|require|loader|experimental-loader)=/.test(a)) flags.push(a)
    else if (/^(--import|--require|-r|--loader|--experimental-loader)$/.test(a) && argv[i + 1] !== undefined) flags.push(a, argv[++i] as string)
  }
  return flags
}

/** Measures the floor in a child process (this file run as a script). */
export const floorInChild = (): Floor => {
  const out = spawnSync(process.execPath, [...loaderFlags(), fileURLToPath(import.meta.url)], { encoding: 'utf8' })
  if (out.status !== 0) throw new Error(`the floor failed: ${out.stderr}`)
  return JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as Floor
}

export const describeFloor = (f: Floor): string =>
  `floor: ${f.usPerRecord.toFixed(2)} µs CPU per record (UTF-8 decode + JSON.parse of session-ended payloads, best of ${f.rounds.length} rounds of ${f.records.toLocaleString('en')}: ${f.rounds.map((r) => r.toFixed(2)).join(' ')})`

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(measureFloor(floorPayloads())))
