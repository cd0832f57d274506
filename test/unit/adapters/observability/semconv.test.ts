import { describe, expect, it } from 'vitest'
import * as incubating from '@opentelemetry/semantic-conventions/incubating'
import * as ours from '../../../../src/adapters/observability/semconv.js'

// The messaging names are copied from the package's incubating entry (which may change in any minor
// release): each copy must still be what the installed package says.
describe('semantic convention names', () => {
  it('every copied constant equals the one in @opentelemetry/semantic-conventions/incubating', () => {
    const copied = Object.entries(ours).filter(([name]) => !name.includes('DEV_STATS') && name !== 'EVENT_EXCEPTION')
    expect(copied.length).toBeGreaterThan(20)
    for (const [name, value] of copied) expect([name, (incubating as Record<string, unknown>)[name]]).toEqual([name, value])
  })

  it('the names are the conventions\' own spelling', () => {
    expect([ours.ATTR_MESSAGING_SYSTEM, ours.ATTR_MESSAGING_CONSUMER_GROUP_NAME, ours.ATTR_MESSAGING_BATCH_MESSAGE_COUNT, ours.ATTR_DB_SYSTEM_NAME, ours.ATTR_DB_COLLECTION_NAME]).toEqual([
      'messaging.system', 'messaging.consumer.group.name', 'messaging.batch.message_count', 'db.system.name', 'db.collection.name',
    ])
  })
})
