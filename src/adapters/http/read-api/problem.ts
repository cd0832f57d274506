import type { FastifyReply } from 'fastify'

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

/** One rejected query parameter (the value itself is never echoed). */
export interface ParameterError {
  readonly parameter: string
  readonly detail: string
}

/** An RFC 9457 problem; `errors` lists the bad parameters of a 400. */
export interface Problem {
  readonly type: string
  readonly title: string
  readonly status: number
  readonly detail: string
  readonly errors?: readonly ParameterError[]
}

const TITLES = {
  'unauthorized': [401, 'A valid bearer token is required'],
  'invalid-parameters': [400, 'Invalid query parameters'],
  'key-unavailable': [503, 'Tokens cannot be verified right now'],
  'store-unavailable': [503, 'The metrics store is unavailable'],
  'rate-limited': [429, 'Too many requests'],
  'overloaded': [503, 'Too many reads at once'],
  'read-timeout': [503, 'The read took too long'],
  'internal-error': [500, 'Internal error'],
  'method-not-allowed': [405, 'Method not allowed'],
} as const

export type ProblemKind = keyof typeof TITLES

/** The stable `type` URI of a kind; clients branch on it, not on the title. */
export const problemType = (kind: ProblemKind): string => `urn:dev-stats:problem:${kind}`

export const problem = (kind: ProblemKind, detail: string, errors?: readonly ParameterError[]): Problem => {
  const [status, title] = TITLES[kind]
  return { type: problemType(kind), title, status, detail, ...(errors ? { errors } : {}) }
}

export const sendProblem = (reply: FastifyReply, p: Problem): FastifyReply => reply.code(p.status).type(PROBLEM_CONTENT_TYPE).send(p)
