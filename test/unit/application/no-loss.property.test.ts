import { afterEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeEnvelope } from '../../../src/domain/envelope.js'
import * as E from 'fp-ts/lib/Either.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { viewEndedHandler } from '../../../src/application/handlers/view-ended.handler.js'
import { binaryRecord, messageIdOf, sessionEndedPayload } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

const handlers = [sessionEndedHandler(), leadCreatedHandler(), propertyObjectUpsertedHandler(), viewEndedHandler()]
const now = Date.parse('2026-11-30T12:00:00Z')

describe('no input makes the decoders throw', () => {
  it('arbitrary bytes and headers', () => {
    fc.assert(
      fc.property(fc.option(fc.uint8Array({ maxLength: 200 })), fc.dictionary(fc.string(), fc.string()), (value, headers) => {
        const env = decodeEnvelope({ value, headers })
        if (E.isRight(env)) for (const h of handlers) h.interpret(env.right, now)
      }),
      { numRuns: 500 },
    )
  })

  it('arbitrary JSON payloads, also shaped like the real ones', () => {
    const field = fc.oneof(fc.jsonValue(), fc.uuid(), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constant('0001-01-01T00:00:00'))
    const payload = fc.oneof(
      fc.jsonValue(),
      fc.record({ SessionId: field, AnonymousId: field, UserId: field, CreatedAt: field, LastActivityAt: field, DurationSeconds: field }, { requiredKeys: [] }),
      fc.record({ LeadId: field, OriginPropertyObjectId: field, CreatedAt: field }, { requiredKeys: [] }),
    )
    fc.assert(
      fc.property(payload, (p) => {
        for (const h of handlers) {
          const r = h.interpret({ context: { messageId: 'm' }, payload: p }, now)
          expect(E.isLeft(r) || E.isRight(r)).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })
})

describe('the engine loses no message', () => {
  let h: Harness
  afterEach(async () => h?.stopAll())

  it('valid, poison and duplicate records under store outages: every valid one is a row, every poison a dead letter, all committed', async () => {
    const sessions = handlers[0] as (typeof handlers)[number]
    const kind = fc.constantFrom('valid', 'valid', 'valid', 'negative', 'garbage', 'no-id', 'duplicate')
    await fc.assert(
      fc.asyncProperty(fc.array(kind, { minLength: 1, maxLength: 120 }), fc.array(fc.boolean(), { maxLength: 6 }), async (kinds, outages) => {
        h = new Harness([sessions])
        await h.start()
        const records = kinds.map((k, i) => {
          if (k === 'negative') return binaryRecord(sessions.topic, sessionEndedPayload({ DurationSeconds: -1 }))
          if (k === 'garbage') return binaryRecord(sessions.topic, `{${i}`)
          if (k === 'no-id') return binaryRecord(sessions.topic, sessionEndedPayload(), { messageId: null })
          return binaryRecord(sessions.topic, sessionEndedPayload())
        })
        const withDuplicates = records.flatMap((r, i) => (kinds[i] === 'duplicate' ? [r, r] : [r]))
        h.publish(...withDuplicates)
        for (const down of outages) {
          h.store.down = down
          await new Promise((r) => setTimeout(r, 3))
        }
        h.store.down = false
        await waitUntil(() => h.caughtUp(sessions), 10_000)
        const ids = new Set(h.tables.of('session_facts').map((r) => r.fact.row.factId))
        const valid = records.filter((_, i) => kinds[i] === 'valid' || kinds[i] === 'duplicate').map(messageIdOf)
        expect([...ids].sort()).toEqual([...new Set(valid)].sort())
        expect(h.dlq(sessions)).toHaveLength(kinds.filter((k) => k === 'negative' || k === 'garbage' || k === 'no-id').length)
        await h.stopAll()
      }),
      { numRuns: 25 },
    )
  })
})
