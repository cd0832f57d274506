import { parseArgs } from 'node:util'
import type { DeadLetterFilter } from '../../application/dlq/dead-letter.js'
import { UsageError, zonedInstant } from '../cli-runner.js'

export { UsageError }

export type DlqCommand =
  | { readonly name: 'help' }
  | { readonly name: 'summary'; readonly topic?: string }
  | { readonly name: 'show'; readonly topic: string; readonly filter: DeadLetterFilter; readonly limit: number }
  | { readonly name: 'replay'; readonly topic?: string; readonly filter: DeadLetterFilter; readonly dryRun: boolean; readonly maxPerSecond?: number }

const OPTIONS = {
  topic: { type: 'string' },
  reason: { type: 'string' },
  limit: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'dry-run': { type: 'boolean' },
  rate: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const instant = (name: string, raw: string | undefined): number | undefined => (raw === undefined ? undefined : zonedInstant(name, raw))

const positive = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got "${raw}"`)
  return n
}

const allowedOnly = (command: string, values: Record<string, unknown>, allowed: readonly string[]) => {
  const extra = Object.keys(values).filter((k) => values[k] !== undefined && !allowed.includes(k))
  if (extra.length > 0) throw new UsageError(`${command} does not take ${extra.map((k) => `--${k}`).join(', ')}`)
}

export const parseDlqArgs = (argv: readonly string[]): DlqCommand => {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const { values, positionals } = parsed
  const [name, ...rest] = positionals
  if (values.help || name === undefined || name === 'help') return { name: 'help' }
  if (rest.length > 0) throw new UsageError(`unexpected argument(s): ${rest.join(' ')}`)
  const filter: DeadLetterFilter = { reason: values.reason, since: instant('since', values.since), until: instant('until', values.until) }
  switch (name) {
    case 'summary':
      allowedOnly(name, values, ['topic'])
      return { name, topic: values.topic }
    case 'show': {
      allowedOnly(name, values, ['topic', 'reason', 'limit'])
      if (!values.topic) throw new UsageError('show needs --topic <source topic>')
      return { name, topic: values.topic, filter, limit: positive('limit', values.limit) ?? 20 }
    }
    case 'replay':
      allowedOnly(name, values, ['topic', 'reason', 'since', 'until', 'dry-run', 'rate'])
      return { name, topic: values.topic, filter, dryRun: values['dry-run'] === true, maxPerSecond: positive('rate', values.rate) }
    default:
      throw new UsageError(`unknown command "${name}" (summary, show, replay or help)`)
  }
}
