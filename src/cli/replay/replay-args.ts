import { parseArgs } from 'node:util'
import { UsageError, zonedInstant } from '../cli-runner.js'

export { UsageError }

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

const OPTIONS = {
  consumer: { type: 'string' },
  from: { type: 'string' },
  'to-latest': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

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
    from: zonedInstant('from', values.from),
    toLatest: values['to-latest'] === true,
    dryRun: values['dry-run'] === true,
  }
}
