import { parseArgs } from 'node:util'

export type ReplayCommand =
  | { readonly name: 'help' }
  | {
    readonly name: 'replay'
    /** Registry keys (SESSION_ENDED, …), or 'all'. */
    readonly consumers: readonly string[] | 'all'
    readonly from: number
    readonly toLatest: boolean
    readonly dryRun: boolean
  }

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

const OPTIONS = {
  consumer: { type: 'string' },
  from: { type: 'string' },
  'to-latest': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

// A time without its zone would be read in the local zone of whoever runs the tool.
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

const instant = (raw: string): number => {
  const t = Date.parse(raw)
  if (!ISO_WITH_ZONE.test(raw) || Number.isNaN(t)) {
    throw new UsageError(`--from must be an ISO-8601 date-time with its zone, such as 2026-11-01T00:00:00Z, got "${raw}"`)
  }
  return t
}

/** `keys`: the consumer registry's keys, to name the valid ones in the error. */
export const parseReplayArgs = (argv: readonly string[], keys: readonly string[]): ReplayCommand => {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help || positionals[0] === 'help' || argv.length === 0) return { name: 'help' }
  if (positionals.length > 0) throw new UsageError(`unexpected argument(s): ${positionals.join(' ')}`)
  if (!values.consumer) throw new UsageError(`--consumer is required: one of ${keys.join(', ')} or all`)
  if (!values.from) throw new UsageError('--from is required: the time to re-read from, e.g. 2026-11-01T00:00:00Z')
  const wanted = values.consumer.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const unknown = wanted.filter((k) => !keys.includes(k) && k !== 'all')
  if (unknown.length > 0) throw new UsageError(`unknown consumer ${unknown.join(', ')}: one of ${keys.join(', ')} or all`)
  return {
    name: 'replay',
    consumers: wanted.includes('all') ? 'all' : [...new Set(wanted)],
    from: instant(values.from),
    toLatest: values['to-latest'] === true,
    dryRun: values['dry-run'] === true,
  }
}
