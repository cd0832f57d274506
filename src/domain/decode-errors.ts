import type * as t from 'io-ts'

/** Renders io-ts errors as one line: `Field: expected …, got …`. */
export const describeErrors = (errors: t.Errors): string =>
  errors
    .slice(0, 5)
    .map((e) => {
      const path = e.context
        .map((c) => c.key)
        .filter((k) => k !== '' && !/^\d+$/.test(k))
        .join('.')
      const got = e.value === undefined ? 'nothing' : JSON.stringify(e.value)?.slice(0, 60)
      return `${path || '(payload)'}: ${e.message ?? `expected ${e.context.at(-1)?.type.name}`}, got ${got}`
    })
    .join('; ')
