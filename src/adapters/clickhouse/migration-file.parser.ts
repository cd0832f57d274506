/** A migration file: its version (the file name without .sql) and its statements in order. */
export interface Migration {
  readonly version: string
  readonly statements: readonly string[]
}

const FILE_NAME = /^(\d{4}_[a-z0-9_]+)\.sql$/

export const isMigrationFile = (name: string): boolean => FILE_NAME.test(name)

/**
 * Splits on ";" at the end of a line (the format migrations/ documents); whole-line "--"
 * comments are dropped. The database name `pin_dev_stats` is replaced by the configured one,
 * which is a checked identifier.
 */
export const parseMigration = (fileName: string, text: string, database: string): Migration => {
  const m = FILE_NAME.exec(fileName)
  if (!m?.[1]) throw new Error(`not a migration file name: ${fileName}`)
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`not a database name: ${database}`)
  const body = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
  const statements = body
    .split(/;[ \t]*\r?$/m)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => s.replace(/\bpin_dev_stats\b/g, database))
  return { version: m[1], statements }
}
