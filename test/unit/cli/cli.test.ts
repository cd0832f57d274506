import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runCli, USAGE } from '../../../src/cli/cli.js'
import { progressLine } from '../../../src/cli/progress-line.js'

// `dev-stats-ingest`: the dispatcher's exit codes and texts, the checks that need no server, and
// the bin's node flags kept equal to npm start's.
const captured = () => {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true))
  return { out: () => out.join(''), err: () => err.join('') }
}

describe('dev-stats-ingest', () => {
  afterEach(() => vi.restoreAllMocks())

  it('--help prints the usage naming every command (exit 0); no command prints it on stderr (exit 2)', async () => {
    const io = captured()
    expect(await runCli(['--help'])).toBe(0)
    expect(io.out()).toBe(`${USAGE}\n`)
    for (const c of ['start', 'migrate', 'topics', 'check', 'backfill', 'replay', 'dlq']) expect(USAGE).toMatch(new RegExp(`^  ${c} +\\S`, 'm'))
    expect(await runCli([])).toBe(2)
    expect(io.err()).toContain('dev-stats-ingest <command>')
  })

  it('--version prints the package version', async () => {
    const io = captured()
    expect(await runCli(['--version'])).toBe(0)
    expect(io.out().trim()).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version)
  })

  it.each([['frobnicate'], ['--frobnicate'], ['migrate', '--frobnicate'], ['topics', 'extra'], ['check', '--list'], ['start', '--dry-run'], ['dlq', 'frob'], ['replay', '--frob']])(
    '%s … is wrong usage: exit 2 with where the help is',
    async (...argv) => {
      const io = captured()
      expect(await runCli(argv)).toBe(2)
      expect(io.err()).toMatch(/dev-stats-ingest/)
    },
  )

  it.each(['start', 'migrate', 'topics', 'check', 'backfill', 'replay', 'dlq'])('%s --help prints its own help (exit 0), touching no server', async (command) => {
    const io = captured()
    expect(await runCli([command, '--help'], { DEV_STATS_KAFKA_BROKERS: '127.0.0.1:1', DEV_STATS_CLICKHOUSE_URL: 'http://127.0.0.1:1' })).toBe(0)
    expect(io.out()).toMatch(new RegExp(`^dev-stats-ingest ${command}`))
  })

  it('an invalid setting is exit 2 naming it; migrate and backfill refuse the memory store', async () => {
    const io = captured()
    expect(await runCli(['topics', '--list'], { DEV_STATS_BATCH_MAX_ROWS: 'many' })).toBe(2)
    expect(io.err()).toContain('DEV_STATS_BATCH_MAX_ROWS')
    expect(await runCli(['migrate'], { DEV_STATS_STORE: 'memory' })).toBe(2)
    expect(await runCli(['backfill'], { DEV_STATS_STORE: 'memory' })).toBe(2)
    expect(io.err()).toMatch(/DEV_STATS_STORE memory keeps no schema/)
  })

  it('check names every invalid setting, one line each, skips what needs them and exits 1', async () => {
    const io = captured()
    const code = await runCli(['check'], { DEV_STATS_BATCH_MAX_ROWS: 'x', DEV_STATS_FUNNEL_ENABLED: 'maybe', DEV_STATS_HTTP_PORT: '99999', DEV_STATS_FLUSH_INTERVAL_MS: '0' })
    expect(code).toBe(1)
    const lines = io.out().split('\n')
    for (const name of ['DEV_STATS_BATCH_MAX_ROWS', 'DEV_STATS_FUNNEL_ENABLED', 'DEV_STATS_HTTP_PORT', 'DEV_STATS_FLUSH_INTERVAL_MS']) {
      expect(lines.filter((l) => l.startsWith('FAIL  settings') && l.includes(name))).toHaveLength(1)
    }
    expect(lines).toContain('--    store     the settings are invalid')
    expect(lines).toContain('--    broker    the settings are invalid')
    expect(io.out()).toMatch(/^4 of 7 checks failed$/m)
  })

  // Issue 48: a misspelled name (here the issuer check, a security setting) was ignored without a word.
  it('a DEV_STATS_* variable that is no setting: check and start exit 2 naming it and the closest known name', async () => {
    const typo = { DEV_STATS_READ_API_JWT_ISSUER: 'https://id.example.com', DEV_STATS_BATCH_MAX_ROW: '500' }
    const io = captured()
    expect(await runCli(['check'], typo)).toBe(2)
    const lines = io.out().split('\n')
    expect(lines).toContain('FAIL  settings  DEV_STATS_BATCH_MAX_ROW is not a setting (did you mean DEV_STATS_BATCH_MAX_ROWS?)')
    expect(lines).toContain('FAIL  settings  DEV_STATS_READ_API_JWT_ISSUER is not a setting (did you mean DEV_STATS_READ_API_ISSUER?)')
    expect(await runCli(['start'], typo)).toBe(2)
    expect(io.err()).toContain('DEV_STATS_BATCH_MAX_ROW is not a setting (did you mean DEV_STATS_BATCH_MAX_ROWS?)')
    expect(io.err()).toContain('DEV_STATS_READ_API_JWT_ISSUER is not a setting (did you mean DEV_STATS_READ_API_ISSUER?)')
  })

  it("the repository scripts' own DEV_STATS_* variables and per-consumer overrides are known", async () => {
    const io = captured()
    expect(await runCli(['check'], { DEV_STATS_INFRA_DIR: '/tmp/infra', DEV_STATS_CACHE_DIR: '/tmp/cache', DEV_STATS_TOPIC_SESSION_ENDED: 'a.topic' })).toBe(0)
    expect(io.out()).not.toContain('FAIL')
  })

  it('check with the in-memory defaults passes without reaching anything', async () => {
    const io = captured()
    expect(await runCli(['check'], {})).toBe(0)
    expect(io.out()).toMatch(/^ok {4}store {5}in memory/m)
    expect(io.out()).toMatch(/^ok {4}read API  off/m)
  })

  it('check refuses a read API key that cannot be loaded', async () => {
    const io = captured()
    expect(await runCli(['check'], { DEV_STATS_READ_API_JWT_SECRET: 'too short' })).toBe(1)
    expect(io.out()).toMatch(/^FAIL {2}read API .*DEV_STATS_READ_API_JWT_SECRET must hold at least 32 bytes/m)
    expect(io.out()).not.toContain('too short')
  })

  it('check refuses the read API\'s rate limit or CORS settings when invalid, or set without a key', async () => {
    const io = captured()
    const key = { DEV_STATS_READ_API_JWT_SECRET: 'a-secret-of-at-least-thirty-two-bytes-0123' }
    expect(await runCli(['check'], { ...key, DEV_STATS_READ_API_CORS_ORIGINS: 'https://a.example.com/dash' })).toBe(1)
    expect(io.out()).toMatch(/^FAIL {2}read API .*DEV_STATS_READ_API_CORS_ORIGINS must list origins/m)
    expect(await runCli(['check'], { DEV_STATS_READ_API_RATE_LIMIT: '100' })).toBe(1)
    expect(io.out()).toMatch(/^FAIL {2}read API .*DEV_STATS_READ_API_RATE_LIMIT is set, but no key is/m)
  })
})

describe('the bin and npm start', () => {
  it('run node with the same flags and mmap threshold (the bin through its #! line and a re-exec, npm start on its command line)', () => {
    const bin = readFileSync('src/cli/bin.cts', 'utf8')
    const shebang = bin.split('\n')[0] as string
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start
    const flags = (line: string) => line.split(/\s+/).filter((w) => w.startsWith('--'))
    expect(flags(shebang).length).toBeGreaterThan(0)
    expect(flags(shebang)).toEqual(flags(start))
    expect(start).toMatch(/UV_THREADPOOL_SIZE=\$\{UV_THREADPOOL_SIZE:-32\}/)
    expect(start).toMatch(/MALLOC_MMAP_THRESHOLD_=\$\{MALLOC_MMAP_THRESHOLD_:-131072\} /)
    // kernels before Linux 5.1 read 127 bytes of a #! line
    expect(Buffer.byteLength(shebang)).toBeLessThanOrEqual(127)
    expect(bin).toContain("const MALLOC_MMAP_THRESHOLD = '131072'")
    expect(bin).toContain('execve.call(process, process.execPath, [process.execPath, ...process.execArgv, __filename, ...process.argv.slice(2)]')
    expect(bin).toContain("process.env['UV_THREADPOOL_SIZE'] ||= '32'")
  })
})

describe('progressLine', () => {
  it('redraws one line on a terminal and writes a line per step elsewhere', () => {
    const tty: string[] = []
    const t = progressLine({ isTTY: true, write: (s) => tty.push(s) })
    t.step('a')
    t.step('b')
    t.end()
    expect(tty.join('')).toBe('\r\x1b[2Ka\r\x1b[2Kb\r\x1b[2K')
    const pipe: string[] = []
    const p = progressLine({ isTTY: false, write: (s) => pipe.push(s) })
    p.step('a')
    p.step('b')
    p.end()
    expect(pipe.join('')).toBe('a\nb\n')
  })
})
