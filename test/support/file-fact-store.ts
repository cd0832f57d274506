import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs'
import type { FactStore } from '../../src/application/ports/fact-store.port.js'
import type { FactRow } from '../../src/domain/fact-row.js'
import type { Instant } from '../../src/domain/instant.js'

export interface FileRow {
  readonly fact: FactRow
  readonly ingestionTime: Instant
}

/**
 * A durable append-only store for crash tests: one JSON line per row, fsync'ed before `append`
 * resolves, so every row the engine saw confirmed survives a SIGKILL of the process.
 */
export class FileFactStore implements FactStore {
  inserts = 0

  constructor(readonly file: string) {}

  async append(rows: readonly FactRow[], ingestionTime: Instant): Promise<void> {
    const text = rows.map((fact) => JSON.stringify({ fact, ingestionTime })).join('\n') + '\n'
    const fd = openSync(this.file, 'a')
    try {
      appendFileSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    this.inserts++
  }

  /** Every row written so far; a torn last line (a kill inside write) is ignored. */
  static read(file: string): FileRow[] {
    if (!existsSync(file)) return []
    const rows: FileRow[] = []
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue
      try {
        rows.push(JSON.parse(line) as FileRow)
      } catch {
        /* torn tail */
      }
    }
    return rows
  }
}
