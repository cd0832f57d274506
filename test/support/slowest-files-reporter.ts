import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'

/**
 * A reporter beside the default one: at the end of a run, the ten slowest test files with their
 * time in the worker (set-up, import and collection, tests and hooks), so that the next slowdown
 * is seen the day it lands.
 */
export default class SlowestFilesReporter implements Reporter {
  private vitest: Vitest | undefined

  private readonly count: number

  /** vitest passes a reporter's options from the config (`['./…', { count }]`). */
  constructor(options: { count?: number } = {}) {
    this.count = options.count ?? 10
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (!this.vitest || testModules.length === 0) return
    const root = this.vitest.config.root
    const files = testModules
      .map((m) => ({ file: relative(root, m.moduleId), project: m.project.name, ms: fileTime(m) }))
      .sort((a, b) => b.ms - a.ms)
    const width = Math.max(...files.map((f) => f.project.length))
    const lines = files.slice(0, this.count).map((f) => `  ${formatTime(f.ms).padStart(7)}  ${f.project.padEnd(width)}  ${f.file}`)
    this.vitest.logger.log(`\nSlowest test files (${Math.min(this.count, files.length)} of ${files.length}; set-up, import, tests and hooks):\n${lines.join('\n')}\n`)
  }
}

const fileTime = (m: TestModule): number => {
  const d = m.diagnostic()
  return d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration
}

const formatTime = (ms: number): string => {
  const s = Math.round(ms / 1000)
  return s < 60 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`
}
