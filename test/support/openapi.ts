import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { expect } from 'vitest'

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

/** What a test got back over HTTP, kept for validation against the served document. */
export interface SeenResponse {
  readonly path: string
  readonly status: number
  readonly contentType: string
  readonly body: unknown
  /** When given, every header the document declares for the status must be here and match its schema. */
  readonly headers?: Headers
}

interface OpenApiDocument {
  readonly openapi: string
  readonly paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, { schema: object }>; headers?: Record<string, { schema: object }> }> } }>
}

/**
 * Checks real responses against an OpenAPI 3.1 document (JSON Schema 2020-12): the path and
 * status must be documented, the media type listed, and the body must match its schema; with
 * `headers`, so must each declared header (a digits-only value read as the number it spells).
 */
export const openApiValidator = (doc: unknown) => {
  const d = doc as OpenApiDocument
  expect(d.openapi).toMatch(/^3\.1\./)
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  return (r: SeenResponse): void => {
    const route = d.paths[r.path.split('?')[0] as string]?.get
    expect(route, `GET ${r.path} is documented`).toBeDefined()
    const media = route?.responses[String(r.status)]?.content
    expect(media, `${r.status} of GET ${r.path} is documented`).toBeDefined()
    const type = r.contentType.split(';')[0]?.trim() ?? ''
    const schema = media?.[type]?.schema
    expect(schema, `${type} for ${r.status} of GET ${r.path} is documented`).toBeDefined()
    const validate = ajv.compile(schema as object)
    expect(validate(r.body), `${r.status} ${r.path}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(r.body)}`).toBe(true)
    if (!r.headers) return
    for (const [name, declared] of Object.entries(route?.responses[String(r.status)]?.headers ?? {})) {
      const raw = r.headers.get(name)
      expect(raw, `${r.status} of GET ${r.path} sends ${name}`).not.toBeNull()
      const checkHeader = ajv.compile(declared.schema)
      expect(checkHeader(/^\d+$/.test(raw as string) ? Number(raw) : raw), `${name}: ${raw} ${ajv.errorsText(checkHeader.errors)}`).toBe(true)
    }
  }
}
