/** Command line of `npm run soak`. */
export type SoakBroker = 'kafkajs' | 'confluent' | 'mixed'

export interface SoakOptions {
  readonly minutes: number
  /** Records/s produced over all 16 topics. */
  readonly rate: number
  readonly instances: number
  readonly broker: SoakBroker
  readonly seed: number
  readonly reportDir: string
  /** Toxiproxy between the service and both servers, and wire faults in the schedule (issue 36). */
  readonly networkFaults: boolean
}

export const USAGE = `usage: npm run soak -- [--minutes N] [--rate R] [--instances K] [--broker kafkajs|confluent|mixed] [--seed S] [--network-faults] --report DIR
  defaults: 60 minutes, 2000 records/s, 2 instances, kafkajs, a seed from the clock (printed; pass it to repeat a run)`

const BROKERS: readonly SoakBroker[] = ['kafkajs', 'confluent', 'mixed']

export const parseSoakOptions = (argv: readonly string[], clockSeed: number): SoakOptions => {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]]
    if (name === '--network-faults') {
      flags.set('network-faults', 'true')
      i--
      continue
    }
    if (!name?.startsWith('--') || value === undefined) throw new Error(USAGE)
    flags.set(name.slice(2), value)
  }
  const known = new Set(['minutes', 'rate', 'instances', 'broker', 'seed', 'report', 'network-faults'])
  for (const name of flags.keys()) if (!known.has(name)) throw new Error(`unknown option --${name}\n${USAGE}`)
  const num = (name: string, fallback: number, min: number): number => {
    const raw = flags.get(name)
    if (raw === undefined) return fallback
    const n = Number(raw.replace(/_/g, ''))
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}\n${USAGE}`)
    return n
  }
  const broker = (flags.get('broker') ?? 'kafkajs') as SoakBroker
  if (!BROKERS.includes(broker)) throw new Error(`--broker takes ${BROKERS.join('|')}\n${USAGE}`)
  const reportDir = flags.get('report')
  if (!reportDir) throw new Error(`--report DIR is required\n${USAGE}`)
  const instances = num('instances', 2, 1)
  if (!Number.isInteger(instances)) throw new Error(`--instances must be a whole number\n${USAGE}`)
  return {
    minutes: num('minutes', 60, 0.5),
    rate: num('rate', 2000, 1),
    instances,
    broker,
    seed: Math.trunc(num('seed', clockSeed, 0)) >>> 0,
    reportDir,
    networkFaults: flags.has('network-faults'),
  }
}

/** The client of base instance `i` (and of added instance `i`): mixed alternates, starting with kafkajs. */
export const clientOf = (broker: SoakBroker, i: number): 'kafkajs' | 'confluent' =>
  broker === 'mixed' ? (i % 2 === 0 ? 'kafkajs' : 'confluent') : broker
