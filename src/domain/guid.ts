import * as t from 'io-ts'

export interface GuidBrand {
  readonly Guid: unique symbol
}

/** A UUID in canonical lower-case form; .NET writes upper or lower case, ClickHouse returns lower. */
export type Guid = t.Branded<string, GuidBrand>

export const EMPTY_GUID = '00000000-0000-0000-0000-000000000000' as Guid

const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

export const isGuid = (value: unknown): value is Guid => typeof value === 'string' && GUID_PATTERN.test(value)

/** Accepts any-case UUID text and normalises it to lower case. */
export const GuidCodec = new t.Type<Guid, string, unknown>(
  'Guid',
  (u): u is Guid => isGuid(u) && u === u.toLowerCase(),
  (u, c) => (isGuid(u) ? t.success(u.toLowerCase() as Guid) : t.failure(u, c, 'expected a UUID')),
  (g) => g,
)

export const isEmptyGuid = (g: Guid): boolean => g === EMPTY_GUID
