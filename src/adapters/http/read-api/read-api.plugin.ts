import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import * as E from 'fp-ts/lib/Either.js'
import { PortError } from '../../../application/ports/retriable.js'
import { settleWithin } from '../../../application/settle-within.js'
import { ReadsOverloaded, ReadTimedOut, type DateRange, type HierarchyFilter, type Period } from '../../../application/ports/read-model.port.js'
import type { AccessDenied, DeveloperActor } from '../../../application/read/actor.js'
import type { FunnelStageReport } from '../../../application/read/get-conversion-funnel.js'
import type { SessionMetrics } from '../../../application/read/get-developer-session-metrics.js'
import type { ScopeLevel } from '../../../application/read/get-funnel-scope.js'
import type { TokenRejection, TokenVerifier } from './bearer-token.js'
import { problem, sendProblem, type ParameterError } from './problem.js'
import { parameterErrors, strictQueryCompiler } from './query-validator.js'
import { conversionFunnelBody, conversionFunnelQuery, errorResponses, sessionMetricsBody, sessionMetricsQuery } from './read-api.schemas.js'
import { hierarchyFilter, readPeriod } from './read-query.js'

/** The read use cases the routes call: an ingest instance's `read` (createDevStatsIngest) is one. */
export interface ReadUseCases {
  /** GET /v1/session-metrics: the days from..to as the half-open period [from 00:00Z, day after to 00:00Z). */
  sessionMetrics(actor: DeveloperActor, period: Period): Promise<E.Either<AccessDenied, SessionMetrics>>
  /** GET /v1/conversion-funnel: the inclusive days and the hierarchy filters asked. */
  conversionFunnel(actor: DeveloperActor, range: DateRange, filter: HierarchyFilter): Promise<E.Either<AccessDenied, readonly FunnelStageReport[]>>
  /** The names shown beside the funnel: its developer and each level the filters narrow to. */
  funnelScope(actor: DeveloperActor, filter: HierarchyFilter): Promise<E.Either<AccessDenied, readonly ScopeLevel[]>>
}

export interface ReadApiOptions {
  /** What the routes read through; pass an ingest instance's `read`. */
  readonly read: ReadUseCases
  /** The only source of the actor (createTokenVerifier). */
  readonly verifyToken: TokenVerifier
  /** The realm of the WWW-Authenticate challenge (default `dev-stats`). */
  readonly realm?: string
  /** Per verified developer: at most `max` requests per window of `windowMs`, then 429 with Retry-After. Absent: no limit. */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number }
  /** Origins whose pages may call the API from a browser (CORS). Absent or empty: none. */
  readonly corsOrigins?: readonly string[]
  /**
   * The reads' time limit (DEV_STATS_READ_QUERY_TIMEOUT_SECONDS): a route that has not answered
   * `ANSWER_GRACE_MS` after it answers 503 read-timeout, whatever it waits on (a read's turn, a
   * cache probe, a store that stopped answering). Absent or 0: no deadline.
   */
  readonly readTimeoutSeconds?: number
}

/** How long past the reads' time limit a route may take: the store's own limit and the client's abort come first. */
export const ANSWER_GRACE_MS = 3000

/** `work`, or ReadTimedOut once `seconds` + the grace have passed (the work goes on, bounded by its own limits). */
const withinDeadline = <T>(seconds: number | undefined, work: Promise<T>): Promise<T> =>
  seconds ? settleWithin(work, seconds * 1000 + ANSWER_GRACE_MS, (): never => { throw new ReadTimedOut(seconds) }) : work

/** RFC 6750 §3: error_description is printable ASCII without `"` and `\` (a claim name may hold them). */
const quotable = (text: string): string => text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?')

const challenge = (realm: string, r: TokenRejection): string =>
  r.code === 'token-missing' ? `Bearer realm="${quotable(realm)}"` : `Bearer realm="${quotable(realm)}", error="invalid_token", error_description="${quotable(r.detail)}"`

const invalidParameters = (reply: FastifyReply, errors: readonly ParameterError[]) =>
  sendProblem(reply, problem('invalid-parameters', errors.map((e) => `${e.parameter} ${e.detail}`).join('; '), errors))

/** The routes that need an actor: the token is checked before validation, so a 401 tells nothing about the query. */
const securedRoutes = async (app: FastifyInstance, o: ReadApiOptions): Promise<void> => {
  const realm = o.realm ?? 'dev-stats'
  const actors = new WeakMap<FastifyRequest, DeveloperActor>()
  const actorOf = (request: FastifyRequest): DeveloperActor | undefined => actors.get(request)

  app.setValidatorCompiler(strictQueryCompiler())
  app.addHook('onRequest', async (request, reply) => {
    const verified = await o.verifyToken(request.headers.authorization)
    if (E.isRight(verified)) return void actors.set(request, verified.right)
    if (verified.left.code === 'key-unavailable') return sendProblem(reply.header('retry-after', '30'), problem('key-unavailable', verified.left.detail))
    return sendProblem(reply.header('www-authenticate', challenge(realm, verified.left)), problem('unauthorized', verified.left.detail))
  })
  if (o.rateLimit) {
    // after the token hook, so that the limit is the verified developer's, never an address's
    await app.register(rateLimit, {
      hook: 'preHandler',
      max: o.rateLimit.max,
      timeWindow: o.rateLimit.windowMs,
      // the token hook answered every request without an actor already: none reaches here
      keyGenerator: (request) => actorOf(request)?.developerId ?? 'no-actor',
    })
  }
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) return invalidParameters(reply, parameterErrors(error.validation))
    if (error.statusCode === 429) return sendProblem(reply, problem('rate-limited', `at most ${o.rateLimit?.max} requests in ${(o.rateLimit?.windowMs ?? 0) / 1000} s per developer; retry after ${String(reply.getHeader('retry-after'))} s`))
    if (error instanceof ReadsOverloaded) return sendProblem(reply.header('retry-after', '1'), problem('overloaded', 'too many reads wait for the store already; retry shortly'))
    if (error instanceof ReadTimedOut) {
      request.log.warn({ seconds: error.seconds }, 'read API: a read ran past its time limit')
      return sendProblem(reply.header('retry-after', '10'), problem('read-timeout', `the read ran past its ${error.seconds} s limit; retry later`))
    }
    if (error instanceof PortError && error.retriable) {
      request.log.warn({ err: error.message }, 'read API: store unavailable')
      return sendProblem(reply.header('retry-after', '5'), problem('store-unavailable', 'the metrics store cannot be reached; retry later'))
    }
    request.log.error({ err: error }, 'read API request failed')
    return sendProblem(reply, problem('internal-error', 'the request failed; the service log has the details'))
  })
  const refused = (reply: FastifyReply) => sendProblem(reply, problem('unauthorized', 'a developer actor is required'))

  const api = app.withTypeProvider<JsonSchemaToTsProvider>()
  api.get('/v1/session-metrics', {
    schema: {
      summary: "Session metrics of the token's developer",
      description: "Sessions that viewed the developer's property objects on the days from..to (UTC), with the guest/user split, duration statistics and the views behind them.",
      tags: ['read'],
      querystring: sessionMetricsQuery,
      response: { 200: sessionMetricsBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const actor = actorOf(request)
    if (!actor) return refused(reply)
    const asked = readPeriod(request.query)
    if (E.isLeft(asked)) return invalidParameters(reply, asked.left)
    const metrics = await withinDeadline(o.readTimeoutSeconds, o.read.sessionMetrics(actor, asked.right.period))
    if (E.isLeft(metrics)) return refused(reply)
    return { developerId: actor.developerId, from: request.query.from, to: request.query.to, ...metrics.right }
  })

  api.get('/v1/conversion-funnel', {
    schema: {
      summary: "Conversion funnel of the token's developer",
      description: 'Distinct business keys per funnel stage on the days from..to (UTC), optionally narrowed to a project, building, layout group or layout; conversion from the previous stage that has a source; lagging stages marked preliminary.',
      tags: ['read'],
      querystring: conversionFunnelQuery,
      response: { 200: conversionFunnelBody, ...errorResponses },
    },
  }, async (request, reply) => {
    const actor = actorOf(request)
    if (!actor) return refused(reply)
    const asked = readPeriod(request.query)
    const filter = hierarchyFilter(request.query)
    if (E.isLeft(asked) || E.isLeft(filter)) return invalidParameters(reply, [...(E.isLeft(asked) ? asked.left : []), ...(E.isLeft(filter) ? filter.left : [])])
    const [stages, scope] = await withinDeadline(o.readTimeoutSeconds, Promise.all([o.read.conversionFunnel(actor, asked.right.range, filter.right), o.read.funnelScope(actor, filter.right)]))
    if (E.isLeft(stages) || E.isLeft(scope)) return refused(reply)
    return {
      developerId: actor.developerId,
      from: request.query.from,
      to: request.query.to,
      scope: scope.right.map((s) => ({ level: s.level, id: s.id, name: s.name })),
      stages: stages.right.map((s) => ({ stage: s.stage, count: s.count, status: s.status, conversionFromPrevious: s.conversionFromPrevious ?? null })),
    }
  })
}

const openapi = () => ({
  openapi: '3.1.0',
  info: {
    title: 'dev-stats read API',
    version: '1.0.0',
    description: "Read-only metrics of one developer: the developer is the one in the verified bearer token, never a parameter.",
  },
  components: { securitySchemes: { bearerAuth: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' } } },
  security: [{ bearerAuth: [] }],
})

/**
 * The read side over HTTP, for a host to mount on its own Fastify server:
 * `await app.register(readApiPlugin, { read, verifyToken })`, optionally with a `prefix`.
 * GET /v1/session-metrics and /v1/conversion-funnel (bearer token required) and
 * GET /v1/openapi.json (OpenAPI 3.1 of those routes, public); with `rateLimit`, per developer
 * limits; with `corsOrigins`, CORS for those origins. Encapsulated: its validator, error
 * handler and token hook apply to its own routes only. A host that registered @fastify/swagger
 * itself gets these routes in its own document, which /v1/openapi.json then serves.
 */
export const readApiPlugin = fp(
  async (app: FastifyInstance, o: ReadApiOptions) => {
    if (o.corsOrigins?.length) {
      await app.register(cors, { origin: [...o.corsOrigins], methods: ['GET', 'HEAD'], allowedHeaders: ['Authorization'], exposedHeaders: ['Retry-After'], maxAge: 600 })
    }
    if (!app.hasDecorator('swagger')) await app.register(swagger, { openapi: openapi() })
    app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger())
    await app.register(async (secured) => securedRoutes(secured, o))
  },
  { name: 'dev-stats-read-api', fastify: '5.x', encapsulate: true },
)
