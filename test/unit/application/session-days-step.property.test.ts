import { describe, it } from 'vitest'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemorySessionDays } from '../../../src/adapters/memory/in-memory-session-days.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import { sessionDaysProperty } from '../../support/session-days-scenario.js'

describe('day summaries kept at ingest (in-memory store)', () => {
  it('answer as the serving rows do for every developer and whole-day period, whatever the order, races and crashes', async () => {
    await sessionDaysProperty(() => {
      const tables = new InMemoryTables()
      return {
        index: new InMemorySessionDays(tables),
        oracle: new InMemoryReadModel(tables, 'serving'),
        writeServing: async (views, sessions) => {
          tables.serving.views.push(...views)
          tables.serving.sessions.push(...sessions)
        },
      }
    }, 500)
  })
})
