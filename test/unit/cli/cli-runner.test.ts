import { afterEach, describe, expect, it, vi } from 'vitest'
import { runTool, UsageError, type OpenedTool, type ToolSpec } from '../../../src/cli/cli-runner.js'
import { parseDlqArgs } from '../../../src/cli/dlq/dlq-args.js'
import { parseReplayArgs } from '../../../src/cli/replay/replay-args.js'

// The one runner of the operator tools (dlq, replay): exit codes and closing what it opened.
const tool = (o: { check?: () => Promise<void> } = {}) => {
  const t = { check: vi.fn(o.check ?? (async () => undefined)), close: vi.fn(async () => undefined) }
  return t satisfies OpenedTool
}

type Cmd = { readonly name: string; readonly argv: readonly string[] }
const spec = (t: ReturnType<typeof tool>, run: () => Promise<number>, parse: ToolSpec<Cmd, typeof t>['parse'] = (argv) => ({ name: 'run', argv })): ToolSpec<Cmd, typeof t> => ({
  name: 'test-tool',
  helpHint: 'npm run test-tool -- help',
  help: 'usage: …',
  parse,
  open: () => t,
  run,
})

const ENV = { DEV_STATS_KAFKA_BROKERS: '127.0.0.1:1' }

describe('runTool', () => {
  afterEach(() => vi.restoreAllMocks())
  const quiet = () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    return vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  }

  it('a time without its zone is a usage error (exit 2) for dlq and replay, and nothing is opened', async () => {
    const stderr = quiet()
    const t = tool()
    const dlq = await runTool(spec(t, async () => 0, (argv) => parseDlqArgs(argv) as never), ['replay', '--since', '2026-11-30T00:00'], ENV)
    const replay = await runTool(spec(t, async () => 0, (argv) => parseReplayArgs(argv, ['SESSION_ENDED']) as never), ['--consumer', 'SESSION_ENDED', '--from', '2026-11-30T00:00'], ENV)
    expect([dlq, replay]).toEqual([2, 2])
    expect(t.check).not.toHaveBeenCalled()
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(/with its zone[\s\S]*npm run test-tool -- help/)
  })

  it('an invalid setting is exit 2 naming it', async () => {
    const stderr = quiet()
    expect(await runTool(spec(tool(), async () => 0), ['x'], { DEV_STATS_KAFKA_BROKERS: 'nope' })).toBe(2)
    expect(String(stderr.mock.calls[0]?.[0])).toContain('DEV_STATS_KAFKA_BROKERS')
  })

  it('closes the clients it opened: after the command, after a failing command (exit 1), after a failing check (exit 1)', async () => {
    quiet()
    const done = tool()
    expect(await runTool(spec(done, async () => 0), ['x'], ENV)).toBe(0)
    const failing = tool()
    expect(await runTool(spec(failing, async () => { throw new Error('broker gone') }), ['x'], ENV)).toBe(1)
    const unchecked = tool({ check: async () => { throw new Error('unreachable') } })
    expect(await runTool(spec(unchecked, async () => 0), ['x'], ENV)).toBe(1)
    expect([done, failing, unchecked].map((t) => t.close.mock.calls.length)).toEqual([1, 1, 1])
  })

  it('a refused command keeps its exit code; help is 0 and opens nothing', async () => {
    quiet()
    const t = tool()
    expect(await runTool(spec(t, async () => 1), ['x'], ENV)).toBe(1)
    expect(await runTool(spec(t, async () => 0, () => ({ name: 'help' })), [], ENV)).toBe(0)
    expect(t.check).toHaveBeenCalledTimes(1)
    expect(() => parseDlqArgs(['purge'])).toThrow(UsageError)
  })
})
