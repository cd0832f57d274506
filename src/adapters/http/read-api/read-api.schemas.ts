import { FUNNEL_STAGES } from '../../../domain/funnel.js'
import { PROBLEM_CONTENT_TYPE } from './problem.js'
import { DAY_PATTERN, FIRST_DAY, LAST_DAY, MAX_RANGE_DAYS } from './read-query.js'

// The route schemas: they validate the query, type the handlers (json-schema-to-ts), serialize
// the replies (only declared fields leave: an allow-list against PII) and become the OpenAPI
// document. Written for both JSON Schema draft-07 (the validator) and 2020-12 (OpenAPI 3.1).

const GUID = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'

const day = (description: string) => ({ type: 'string', format: 'date', pattern: DAY_PATTERN, description }) as const
const guid = (description: string) => ({ type: 'string', format: 'uuid', pattern: GUID, description }) as const
const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const

const range = {
  from: day(`First UTC day of the period, YYYY-MM-DD (${FIRST_DAY} to ${LAST_DAY}), included.`),
  to: day(`Last UTC day of the period, YYYY-MM-DD (${FIRST_DAY} to ${LAST_DAY}), included; not before \`from\`, at most ${MAX_RANGE_DAYS} days after it counted inclusively.`),
} as const

export const sessionMetricsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: range,
} as const

const filters = {
  projectId: guid('Only this project of the developer.'),
  buildingId: guid('Only this building.'),
  layoutGroupId: guid('Only this layout group.'),
  layoutId: guid('Only this layout.'),
} as const

export const conversionFunnelQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: { ...range, ...filters },
} as const

const period = {
  developerId: guid("The token's developer: the only one whose data is read."),
  from: day('First day, as asked.'),
  to: day('Last day, as asked.'),
} as const

export const sessionMetricsBody = {
  description: "The developer's session metrics for the period.",
  type: 'object',
  additionalProperties: false,
  required: [
    'developerId', 'from', 'to', 'sessions', 'guestSessions', 'userSessions',
    'totalDurationSeconds', 'minDurationSeconds', 'maxDurationSeconds', 'avgDurationSeconds', 'views',
  ],
  properties: {
    ...period,
    sessions: count("Sessions that viewed the developer's property objects in the period."),
    guestSessions: count('Of those, sessions of guests.'),
    userSessions: count('Of those, sessions of signed-in users.'),
    totalDurationSeconds: count('Sum of the sessions’ durations (latest fact per session).'),
    minDurationSeconds: count('Shortest session; 0 without sessions.'),
    maxDurationSeconds: count('Longest session; 0 without sessions.'),
    avgDurationSeconds: { type: 'number', minimum: 0, description: 'Mean duration, two decimals; 0 without sessions.' },
    views: {
      type: 'object',
      additionalProperties: false,
      required: ['views', 'closedViews', 'totalViewSeconds'],
      description: 'The views behind those sessions, the open and closed fact of a view counted once.',
      properties: {
        views: count('Views of the developer’s property objects in the period.'),
        closedViews: count('Of those, views that were closed.'),
        totalViewSeconds: count('Sum of the closed views’ durations.'),
      },
    },
  },
} as const

export const conversionFunnelBody = {
  description: "The developer's conversion funnel for the period and filters.",
  type: 'object',
  additionalProperties: false,
  required: ['developerId', 'from', 'to', 'scope', 'stages'],
  properties: {
    ...period,
    scope: {
      type: 'array',
      description: 'The developer and each level the filters narrow to, with its current display name.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['level', 'id', 'name'],
        properties: {
          level: { type: 'string', enum: ['developer', 'project', 'building', 'layout-group', 'layout'] },
          id: guid('The id of that level.'),
          name: { type: ['string', 'null'], description: 'Null while the dimension has no name (or has not arrived yet).' },
        },
      },
    },
    stages: {
      type: 'array',
      description: 'Every funnel stage in order, counted independently (distinct business keys).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['stage', 'count', 'status', 'conversionFromPrevious'],
        properties: {
          stage: { type: 'string', enum: FUNNEL_STAGES },
          count: count('Distinct business keys of the stage in the period.'),
          status: {
            type: 'string',
            enum: ['live', 'preliminary', 'no-source'],
            description: 'preliminary: the stage’s consumer is more than 5 minutes behind; no-source: the stage has no consumer (Leads while the funnel flag is off).',
          },
          conversionFromPrevious: {
            type: ['number', 'null'],
            minimum: 0,
            description: 'count / count of the nearest earlier stage that has a source; null for the first such stage, after a 0, or without a source.',
          },
        },
      },
    },
  },
} as const

export const problemBody = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', description: 'Stable URI of the kind of problem (urn:dev-stats:problem:…).' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    errors: {
      type: 'array',
      description: 'On 400: each rejected parameter and why.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['parameter', 'detail'],
        properties: { parameter: { type: 'string' }, detail: { type: 'string' } },
      },
    },
  },
} as const

// Header schemas as @fastify/swagger reads them: it wraps each into the Header Object's `schema`.
const retryAfter = { 'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before asking again.' } } as const

const problemResponse = (description: string, headers?: typeof retryAfter) =>
  ({ description, ...(headers ? { headers } : {}), content: { [PROBLEM_CONTENT_TYPE]: { schema: problemBody } } }) as const

const unauthorized = {
  description: 'No bearer token, or one that does not verify (signature, algorithm, issuer, audience, exp/nbf, developer claim). No query ran.',
  headers: { 'WWW-Authenticate': { type: 'string', description: 'Bearer challenge (RFC 6750).' } },
  content: { [PROBLEM_CONTENT_TYPE]: { schema: problemBody } },
} as const

export const errorResponses = {
  400: problemResponse(`A query parameter is missing, unknown or invalid (dates, from ≤ to, at most ${MAX_RANGE_DAYS} days, GUID filters).`),
  401: unauthorized,
  429: problemResponse("The token's developer made more requests than the rate limit allows; retry after the Retry-After seconds.", retryAfter),
  500: problemResponse('An unexpected failure; details are in the service log only.'),
  503: problemResponse('The metrics store or the token keys cannot be reached, too many reads wait already, or the read ran past its time limit; retry after the Retry-After seconds.', retryAfter),
} as const
