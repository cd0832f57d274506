import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './cli-runner.js'

type Options = NonNullable<ParseArgsConfig['options']>
type Values<O extends Options> = { readonly [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string }

/** One `dev-stats-ingest <command>`: its argv in, its exit code out. */
export type CommandRun = (argv: readonly string[], env: NodeJS.ProcessEnv) => Promise<number>

export interface FlagCommand<O extends Options> {
  /** As typed after `dev-stats-ingest`. */
  readonly name: string
  readonly help: string
  readonly options: O
  readonly run: (values: Values<O>, env: NodeJS.ProcessEnv) => Promise<number>
}

/**
 * A command of flags only: `--help`/`-h` prints its help (exit 0); an unknown flag, a stray argument
 * or a setting error thrown by `run` is exit 2.
 */
export const flagCommand =
  <O extends Options>(spec: FlagCommand<O>): CommandRun =>
  async (argv, env) => {
    let values: Values<O> & { help?: boolean }
    try {
      values = parseArgs({ args: [...argv], options: { ...spec.options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values as Values<O> & { help?: boolean }
    } catch (e) {
      return usageFailed(spec.name, new UsageError((e as Error).message))
    }
    if (values.help) return process.stdout.write(`${spec.help}\n`), 0
    try {
      return await spec.run(values, env)
    } catch (e) {
      if (!SETTING_ERRORS.includes((e as Error).name)) throw e
      return process.stderr.write(`${(e as Error).message}\n`), 2
    }
  }

// An invalid setting, or the chosen optional client not installed (the message says how to install it).
const SETTING_ERRORS = ['ConfigError', 'ConfluentClientMissing', 'EmbeddedStoreMissing']

const usageFailed = (command: string, e: Error): number => {
  process.stderr.write(`${e.message}\n(dev-stats-ingest ${command} --help)\n`)
  return 2
}
