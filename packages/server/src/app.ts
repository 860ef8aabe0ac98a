import { randomUUID } from 'node:crypto'
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import multipart from '@fastify/multipart'
import FindMyWay from 'find-my-way'
import { validatorCompiler } from 'fastify-type-provider-zod'
import { EngramError, isUuid, NO_FOREGROUND, type Engram } from '@engram/core'
import { lazyDocsSearch, type DocsSearch } from './docs-brain.js'
import { jsonBody } from './json-body.js'
import { documentObject, documentRoute } from './openapi-transforms.js'
import { createDemoRateLimiter, type DemoRateLimiter } from './plugins/demo-rate-limit.js'
import { demoSearchRoute, searchRoutes } from './routes/search-routes.js'
import { ingestRoutes } from './routes/ingest-routes.js'
import { registerAuth } from './plugins/auth.js'
import { requestLogController } from './request-log-controller.js'
import { sendError, toEngramError } from './plugins/error-envelope.js'
import { clientErrorHandler, frameworkErrors, requireHost } from './plugins/framework-errors.js'
import { registerJsonBodyParser } from './plugins/json-body-parser.js'
import { registerClosingGuard } from './plugins/closing-guard.js'
import { drainUnreadBody } from './plugins/unread-body.js'
import { mcpRoutes } from './mcp/mcp-routes.js'
import { consoleRoutes } from './routes/console-routes.js'
import { metaRoutes } from './routes/meta-routes.js'
import { modelRoutes } from './routes/model-routes.js'
import { publicRoutes } from './routes/public-routes.js'
import { retrieveListRoutes } from './routes/retrieve-list-routes.js'
import {
  changelogStreamRoutes,
  type ChangelogStreamOptions,
} from './routes/changelog-stream-routes.js'
import { retrieveGraphRoutes } from './routes/retrieve-graph-routes.js'
import { retrieveContextRoutes } from './routes/retrieve-context-routes.js'
import { sourceRoutes } from './routes/source-routes.js'
import { systemRoutes } from './routes/system-routes.js'
import { taskRoutes } from './routes/task-routes.js'

export interface BuildAppOptions {
  engram: Engram
  basePath?: string
  maxBodyBytes?: number
  /** Largest uploaded file (default 50 MB). */
  maxFileBytes?: number
  logger?: FastifyServerOptions['logger']
  /** The documentation brain of `/demo/search`; when absent, built from docs/ by the first search of it. */
  docs?: DocsSearch
  demoRateLimiter?: DemoRateLimiter
  /** A request that takes longer is logged at `info` (every request is logged at `debug`); default 1,000 ms. */
  slowRequestMs?: number
  /** `GET /retrieve/changelogs/stream`: heartbeat, polling and open-stream limits (tests shorten them). */
  changelogStream?: ChangelogStreamOptions
}

/** The serializer of every JSON response (named, so that profiles show it): see `jsonBody`. */
function serializeJson(data: unknown): string | Buffer | undefined {
  return jsonBody(data)
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const

/**
 * Builds the Fastify app: request ids, the error envelope, authentication and brain selection, the
 * route groups of the specification under `basePath`, and the OpenAPI 3.1 document.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { engram } = options
  const basePath = options.basePath ?? ''
  const docs = lazyDocsSearch(options.docs)
  const demoLimiter = options.demoRateLimiter ?? createDemoRateLimiter()
  const app = Fastify({
    logger: options.logger === undefined ? false : options.logger,
    logController: requestLogController(options.slowRequestMs ?? 1000),
    bodyLimit: options.maxBodyBytes ?? 10 * 1024 * 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const inbound = req.headers['x-request-id']
      return typeof inbound === 'string' && isUuid(inbound) ? inbound.toLowerCase() : randomUUID()
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: undefined,
    // Errors raised before a route runs answer the envelope too (plugins/framework-errors.ts).
    clientErrorHandler,
    frameworkErrors,
    http: { requireHostHeader: false },
    // Requests arriving while the server closes answer the envelope (plugins/closing-guard.ts).
    return503OnClosing: false,
  })
  app.addHook('onRequest', requireHost)
  // With a foreground (TASK_YIELD_MS), every request arriving and answered tells the task queue that
  // requests are being served, so that ingestion's main-thread steps give way to them (core's
  // foreground.ts). Submissions of tasks do not: they ask for that background work, and a client loading
  // documents one request after another would otherwise hold its own ingestion back. Without one (the
  // default), requests pay for no hook.
  const { foreground } = engram
  if (foreground !== NO_FOREGROUND) {
    const touch = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      if (request.routeOptions.config?.submitsTask !== true) foreground.touch()
      done()
    }
    app.addHook('onRequest', touch)
    app.addHook('onResponse', touch)
  }
  registerJsonBodyParser(app)
  registerClosingGuard(app)

  app.setValidatorCompiler(validatorCompiler)
  // Responses are plain JSON; the response schemas document the contract (tests check conformance).
  // JSON.stringify's output (`jsonBody`), not a serializer compiled from the schemas: for a 5 KB search
  // response a hand-written one was no faster (benchmarks/results/http-profile.md), and it cannot drift.
  // Fastify sends the Buffer `jsonBody` returns as it is (Content-Length from its length; the type
  // says string, its `onSendEnd` takes a string or a Buffer).
  app.setSerializerCompiler(() => serializeJson as (data: unknown) => string)

  // Every path and method, to answer 405 with Allow for a known path and a wrong method.
  const known = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 500 })
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${basePath}/docs`) || route.url === `${basePath}/openapi.json`) return
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if ((METHODS as readonly string[]).includes(method)) {
        try {
          known.on(method as (typeof METHODS)[number], route.url, () => {})
        } catch {
          // HEAD/duplicate registrations: already known.
        }
      }
    }
  })

  // Callback style: two hooks run on every response, and neither needs a promise in the usual case.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('X-Request-ID', request.id)
    drainUnreadBody(request, reply, () => done(null, payload))
  })

  app.setErrorHandler((error, request, reply) => {
    const engramError = toEngramError(error)
    // A refusal by design (`shed`: a full task queue, too many change streams, shutting down) is load
    // shedding, logged at debug: at error level, with its stack, every refused request of a flood wrote a
    // log line, costing the event loop what the refusal was meant to save. Other 5xx are failures.
    if (engramError.shed) request.log.debug({ code: engramError.code }, 'request refused')
    else if (engramError.status >= 500) request.log.error({ err: error }, 'request failed')
    return sendError(request, reply, engramError)
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = METHODS.filter((m) => known.find(m, path) !== null)
    if (allowed.length > 0) {
      void reply.header('Allow', allowed.join(', '))
      return sendError(
        request,
        reply,
        new EngramError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on this path.`, {
          resolution: `Use one of: ${allowed.join(', ')}.`,
        }),
      )
    }
    return sendError(request, reply, new EngramError('RESOURCE_NOT_FOUND', 'No such route.'))
  })

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Engram API',
        version: engram.version,
        description:
          'Brain-scoped memory and knowledge-graph retrieval. Errors use the envelope {detail, error: {code, message, resolution, request_id}}.',
      },
      servers: [{ url: basePath === '' ? '/' : basePath }],
      components: {
        securitySchemes: {
          ServicePAT: { type: 'apiKey', in: 'header', name: 'ServicePAT' },
          BearerAuth: { type: 'http', scheme: 'bearer' },
        },
      },
      tags: ['public', 'meta', 'system', 'model', 'ingest', 'sources', 'tasks', 'retrieve'].map(
        (name) => ({
          name,
        }),
      ),
    },
    transform: documentRoute,
    transformObject: documentObject,
  })
  await app.register(swaggerUi, { routePrefix: `${basePath}/docs` })

  await app.register(multipart, {
    limits: { fileSize: options.maxFileBytes ?? 50 * 1024 * 1024, files: 1 },
  })
  // /ingest/file selects its brain after reading the multipart fields (a `brain_id` part may name it).
  registerAuth(app, engram, {
    multipartBrain: (request) => request.routeOptions.config?.multipartBrain === true,
  })

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
      publicRoutes(api, engram)
      demoSearchRoute(api, docs, demoLimiter)
      searchRoutes(api, engram.search)
      metaRoutes(api, engram)
      systemRoutes(api, engram)
      modelRoutes(api, engram)
      taskRoutes(api, engram)
      retrieveListRoutes(api, engram)
      changelogStreamRoutes(api, engram, options.changelogStream)
      retrieveGraphRoutes(api, engram)
      retrieveContextRoutes(api, engram)
      ingestRoutes(api, engram, { maxFileBytes: options.maxFileBytes ?? 50 * 1024 * 1024 })
      sourceRoutes(api, engram)
      consoleRoutes(api)
    },
    { prefix: basePath },
  )
  // MCP sits at the root, outside BASE_PATH (spec section 1: `{base_url_root}/mcp`).
  mcpRoutes(app, { engram, basePath })

  await app.ready()
  return app
}
