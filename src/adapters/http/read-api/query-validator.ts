import { Ajv, type ErrorObject } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchema, FastifySchemaCompiler } from 'fastify'
import type { ParameterError } from './problem.js'
import { FILTER_PARAMETERS, FIRST_DAY, LAST_DAY } from './read-query.js'

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

/**
 * The plugin's own query validator, whatever the host's Ajv options: nothing is coerced, removed
 * or defaulted, so an unknown parameter (e.g. one naming another developer) or a repeated one is
 * a 400 instead of being dropped or merged. Every error is reported, not only the first.
 */
export const strictQueryCompiler = (): FastifySchemaCompiler<FastifySchema> => {
  const ajv = new Ajv({ allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false, strict: true })
  addFormats(ajv, ['date', 'uuid'])
  return ({ schema }) => ajv.compile(schema as object)
}

const SHAPE: Readonly<Record<string, string>> = {
  from: `must be a calendar day YYYY-MM-DD between ${FIRST_DAY} and ${LAST_DAY}`,
  to: `must be a calendar day YYYY-MM-DD between ${FIRST_DAY} and ${LAST_DAY}`,
  ...Object.fromEntries(FILTER_PARAMETERS.map((p) => [p, 'must be a GUID'])),
}

/** The query's validation errors as one entry per parameter, in the words of the API (never the value). */
export const parameterErrors = (errors: readonly Partial<ErrorObject>[]): ParameterError[] => {
  const byParameter = new Map<string, string>()
  for (const e of errors) {
    const params = (e.params ?? {}) as { missingProperty?: string; additionalProperty?: string }
    if (e.keyword === 'required' && params.missingProperty) byParameter.set(params.missingProperty, 'is required')
    else if (e.keyword === 'additionalProperties' && params.additionalProperty) byParameter.set(params.additionalProperty, 'is not a parameter of this route')
    else {
      const name = (e.instancePath ?? '').split('/')[1] ?? ''
      if (byParameter.has(name)) continue
      if (e.keyword === 'type') byParameter.set(name, 'must be given once')
      else byParameter.set(name, SHAPE[name] ?? 'is invalid')
    }
  }
  return [...byParameter].map(([parameter, detail]) => ({ parameter, detail }))
}
