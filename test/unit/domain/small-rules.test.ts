import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { checkContractVersion } from '../../../src/domain/contract-version.js'
import { funnelRow } from '../../../src/domain/funnel.js'
import type { Guid } from '../../../src/domain/guid.js'
import { parseInstant } from '../../../src/domain/instant.js'
import { leadCreatedDecision } from '../../../src/domain/lead-created.js'
import { parentLevels } from '../../../src/domain/dimension-path.js'
import { classifyViewSource } from '../../../src/domain/view-source.js'
import { sessionViewerKind, viewViewerKind } from '../../../src/domain/viewer-kind.js'
import { EMPTY, guid, leadCreatedPayload } from '../../support/events.js'

const g = (s: string) => s as Guid

describe('small domain rules', () => {
  it.each([
    ['2026-11-29T10:15:30.1234567+03:00', '2026-11-29T07:15:30.123Z'],
    ['2026-11-29T10:15:30Z', '2026-11-29T10:15:30.000Z'],
    ['2026-11-29T10:15:30-05:30', '2026-11-29T15:45:30.000Z'],
    ['2026-11-29T10:15:30', '2026-11-29T10:15:30.000Z'],
    ['2026-02-30T10:15:30Z', undefined],
    ['2026-11-29T25:00:00Z', undefined],
    ['29.11.2026', undefined],
  ])('parseInstant(%s) = %s', (text, iso) => {
    const i = parseInstant(text)
    expect(i === undefined ? undefined : new Date(i).toISOString()).toBe(iso)
  })

  it('parseInstant agrees with the platform on every ISO instant from year 1 to 9999', () => {
    const min = Date.parse('0001-01-01T00:00:00Z')
    const max = Date.parse('9999-12-31T23:59:59.999Z')
    fc.assert(fc.property(fc.integer({ min, max }), (ms) => parseInstant(new Date(ms).toISOString()) === ms), { numRuns: 2000 })
  })

  it('year 1 (.NET default) is not read as 1901', () => {
    expect(new Date(parseInstant('0001-01-01T00:00:00') as number).getUTCFullYear()).toBe(1)
  })

  it.each([
    [null, undefined, 'Guest'],
    [g(guid()), 'Agent', 'Agent'],
    [g(guid()), 'Investor', 'Investor'],
    [g(guid()), 'Admin', 'User'],
    [g(guid()), undefined, 'User'],
    [null, 'Agent', 'Guest'],
  ])('view viewer kind (%s, %s) = %s', (userId, role, kind) => {
    expect(viewViewerKind(userId, role)).toBe(kind)
  })

  it('session viewer kind depends on UserId only', () => {
    expect([sessionViewerKind(null), sessionViewerKind(g(guid()))]).toEqual(['Guest', 'User'])
  })

  it.each([
    ['1', undefined],
    ['2', { code: 'contract-version-mismatch', expected: '1', actual: '2' }],
    [undefined, undefined],
  ])('contract version %s → %o', (actual, expected) => {
    expect(checkContractVersion(actual)).toEqual(expected)
  })

  it.each([
    ['Catalog', undefined, { source: 'Catalog', known: true, raw: 'Catalog' }],
    ['Hologram', undefined, { source: 'Unknown', known: false, raw: 'Hologram' }],
    ['Hologram', ['Catalog', 'Hologram'], { source: 'Hologram', known: true, raw: 'Hologram' }],
    ['Catalog', ['Hologram'], { source: 'Unknown', known: false, raw: 'Catalog' }],
    ['Unknown', undefined, { source: 'Unknown', known: false, raw: 'Unknown' }],
    [42, undefined, { source: 'Unknown', known: false, raw: '42' }],
    [{ a: 1 }, undefined, { source: 'Unknown', known: false, raw: '{"a":1}' }],
    [undefined, undefined, { source: 'Unknown', known: false, raw: null }],
  ])('view source %j (known: %j)', (wire, known, expected) => {
    expect(classifyViewSource(wire, known)).toEqual(expected)
  })

  it.each([
    ['with origin', {}, 'count'],
    ['null origin', { OriginPropertyObjectId: null }, 'skip'],
    ['Guid.Empty origin', { OriginPropertyObjectId: EMPTY }, 'skip'],
    ['absent origin', { OriginPropertyObjectId: undefined }, 'skip'],
    ['Guid.Empty LeadId', { LeadId: EMPTY }, 'empty-id'],
    ['no LeadId', { LeadId: undefined }, 'undecodable'],
    ['no CreatedAt', { CreatedAt: undefined }, 'undecodable'],
  ])('lead-created %s → %s', (_, o, expected) => {
    const d = leadCreatedDecision(leadCreatedPayload(o), Date.parse('2026-11-30T12:00:00Z'))
    expect(E.isLeft(d) ? d.left.reason : d.right.kind).toBe(expected)
  })

  it('funnel row: stage, business key and the UTC day of the event', () => {
    const p = { developerId: g('d'), projectId: g('p'), buildingId: g('b'), layoutGroupId: g('lg'), layoutId: g('l'), propertyObjectId: g('po') }
    const at = Date.parse('2026-11-30T23:30:00-03:00')
    expect(funnelRow('Bookings', p, g('k'), at, 'm')).toEqual({ ...p, stage: 'Bookings', businessKey: 'k', eventDate: '2026-12-01', eventTime: at, sourceEventId: 'm' })
  })

  it('dimension path: every level requires the ids of the levels above it', () => {
    expect(parentLevels('developer')).toEqual([])
    expect(parentLevels('layout')).toEqual(['developer', 'project', 'building', 'layout-group'])
  })
})
