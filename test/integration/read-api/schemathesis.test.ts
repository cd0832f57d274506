import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { guid } from '../../support/events.js'
import { freePort } from '../../support/http.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'
import { secretBytes, signToken, TEST_SECRET } from '../../support/tokens.js'

// Issue 38.3: Schemathesis, a property-based API tester no one here wrote, against the read API of
// `npm start` on the real ClickHouse server: every check it has, a fixed seed, a few hundred
// requests, 0 failures. Its venv comes from scripts/install-schemathesis.sh (pretest); a missing
// `st` fails here, it is never skipped. The hooks file keeps positive cases within what the
// document states in words (from ≤ to, at most 366 days).
const repo = fileURLToPath(new URL('../../..', import.meta.url))
const execFileAsync = promisify(execFile)
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const database = `schemathesis_${run}`
const secretFile = join(mkdtempSync(join(tmpdir(), 'schemathesis-')), 'jwt-secret')
writeFileSync(secretFile, TEST_SECRET, { mode: 0o600 })
afterAll(() => removeRunResources([], [database]))

describe('Schemathesis against the read API of npm start', () => {
  it('finds no failure with --checks all', async () => {
    const st = execFileSync('bash', [join(repo, 'scripts/install-schemathesis.sh')], { encoding: 'utf8', timeout: 600_000 }).trim().split('\n').at(-1) as string
    const port = await freePort()
    const env = {
      DEV_STATS_BROKER: 'memory', DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(), DEV_STATS_CLICKHOUSE_DATABASE: database,
      DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_HTTP_PORT: String(port), DEV_STATS_READ_API_JWT_SECRET_FILE: secretFile,
      DEV_STATS_READ_API_RATE_LIMIT: '0', DEV_STATS_LOG_LEVEL: 'warn',
    }
    expect(npmRun(['migrate'], env)).toMatchObject({ code: 0 })
    const service = new NpmStart({ ...env, DEV_STATS_LOG_LEVEL: 'info' })
    try {
      await eventuallyAsync(() => service.logLine(/^consuming from/) !== undefined || service.output.includes('dev-stats ingest:'), 90_000, `npm start:\n${service.output}`)
      const base = `http://127.0.0.1:${port}`
      const token = await signToken({ developer_id: guid() }, secretBytes(), { expiresIn: 3600 })
      const result = await execFileAsync(st, [
        'run', `${base}/v1/openapi.json`, '--url', base, '-H', `Authorization: Bearer ${token}`,
        '--checks', 'all', '--seed', '20261203', '--max-examples', '150', '--no-color',
      ], { cwd: join(repo, 'test/integration/read-api'), env: { ...process.env, SCHEMATHESIS_HOOKS: 'schemathesis_hooks', PYTHONPATH: '.' }, timeout: 600_000 }).catch((e: { stdout?: string; stderr?: string; code?: number }) => {
        throw new Error(`st exited ${e.code}:\n${e.stdout ?? ''}${e.stderr ?? ''}`)
      })
      expect(result.stdout).toMatch(/No issues found/)
      const cases = /(\d+) generated, (\d+) passed/.exec(result.stdout)
      expect(Number(cases?.[1])).toBeGreaterThanOrEqual(200)
      expect(cases?.[1]).toBe(cases?.[2])
    } finally {
      await service.stop()
    }
  }, 900_000)
})
