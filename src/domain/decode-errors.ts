import type * as t from 'io-ts'

/** Renders io-ts errors as one line: `Field: expected …, got …`. */
/** What a rejected value was, never the value itself (it may be a person's name or phone: spec §9). */
const kindOf = (v: unknown): string =>
  v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`

export const describeErrors = (errors: t.Errors): string =>
  errors
    .slice(0, 5)
    .map((e) => {
      const path = e.context
        .map((c) => c.key)
        .filter((k) => k !== '' && !/^\d+$/.test(k))
        .join('.')
      const got = kindOf(e.value)
      return `${path || '(payload)'}: ${e.message ?? `expected ${e.context.at(-1)?.type.name}`}, got ${got}`
    })
    .join('; ')
