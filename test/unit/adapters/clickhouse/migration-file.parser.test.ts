import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dialectFor, pinnedInsertSettings } from '../../../../src/adapters/clickhouse/clickhouse-dialect.js'
import { DEFAULT_MIGRATIONS_DIR } from '../../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { isMigrationFile, parseMigration } from '../../../../src/adapters/clickhouse/migration-file.parser.js'

describe('migration files', () => {
  it('split on ";" at the end of a line, drop comment lines, keep ";" inside a line', () => {
    const text = "-- comment; not a statement;\nCREATE TABLE pin_dev_stats.a (x String DEFAULT ';')\nENGINE = Memory;\n\nCREATE VIEW pin_dev_stats.b AS SELECT 1 ;  \n"
    expect(parseMigration('0007_two.sql', text, 'other_db')).toEqual({
      version: '0007_two',
      statements: ["CREATE TABLE other_db.a (x String DEFAULT ';')\nENGINE = Memory", 'CREATE VIEW other_db.b AS SELECT 1'],
    })
  })

  it('refuse a database name that is not an identifier', () => {
    expect(() => parseMigration('0001_x.sql', 'SELECT 1;', 'a-b')).toThrow()
  })

  it('the repository migrations are found, ordered and each yields statements', () => {
    const names = readdirSync(DEFAULT_MIGRATIONS_DIR).filter(isMigrationFile).sort()
    expect(names[0]).toBe('0001_database.sql')
    for (const n of names) expect(parseMigration(n, readFileSync(`${DEFAULT_MIGRATIONS_DIR}/${n}`, 'utf8'), 'pin_dev_stats').statements.length).toBeGreaterThan(0)
  })
})

describe('dialect by server version', () => {
  it.each([
    ['18.16.1', 'inline'],
    ['19.17.4.11', 'inline'],
    ['20.3.1', 'bound'],
    ['26.7.2.1', 'bound'],
    ['garbage', 'inline'],
  ])('%s → %s', (version, dialect) => expect(dialectFor(version)).toBe(dialect))
})

describe('insert settings pinned by server version', () => {
  it.each([
    ['18.16.1', {}],
    ['21.10.2.15', {}],
    ['21.11.1.1', { async_insert: 0 }],
    ['24.8.4.13', { async_insert: 0 }],
    ['garbage', {}],
  ])('%s → %j', (version, settings) => expect(pinnedInsertSettings(version)).toEqual(settings))
})
