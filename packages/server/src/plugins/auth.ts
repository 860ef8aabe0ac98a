import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  BRAIN_ID_PATTERN,
  EngramError,
  RESERVED_BRAIN_IDS,
  type Engram,
  type Principal,
} from '@engram/core'
import { knownBrainsOf } from './known-brains.js'
import { knownTokensOf } from './known-tokens.js'

/** Who may call a route: nobody needs a token (`public`), any token (`login`), the system token, or a brain. */
export type RouteAuth = 'public' | 'login' | 'system' | 'brain'

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth
    /** The handler selects the brain itself (it reads multipart fields first). */
    multipartBrain?: boolean
  }
  interface FastifyRequest {
    principal: Principal | null
    /** The selected brain on `brain` routes. */
    brainId: string
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** `ServicePAT: <token>` or `Authorization: Bearer <token>`; both and different -> 401. */
export function tokenOf(request: FastifyRequest): string | null {
  const pat = headerValue(request.headers.servicepat)?.trim()
  const authorization = headerValue(request.headers.authorization)
  const match = authorization === undefined ? null : /^\s*bearer\s+(\S+)\s*$/i.exec(authorization)
  const bearer = match?.[1]
  if (authorization !== undefined && bearer === undefined && pat === undefined) {
    throw new EngramError('AUTH_INVALID', 'The Authorization header must be `Bearer <token>`.')
  }
  if (pat && bearer && pat !== bearer) {
    throw new EngramError('AUTH_INVALID', 'ServicePAT and Authorization carry different tokens.')
  }
  return pat || bearer || null
}

function invalidBrainId(where: string, value: string): EngramError {
  const reserved = RESERVED_BRAIN_IDS.has(value)
  return new EngramError(
    'VALIDATION_ERROR',
    reserved ? `Brain id '${value}' is reserved.` : 'Invalid brain id.',
    {
      status: 422,
      detail: [
        {
          loc: where.split('.'),
          msg: reserved ? 'reserved brain id' : 'must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$',
          type: 'value_error',
        },
      ],
    },
  )
}

/**
 * A short, safe rendering of a rejected brain id. Never `String(value)` of an array or object: that
 * recurses through nested arrays, and a 10,000-deep `brain_id` overflowed the stack (a 500).
 */
function shown(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, 100)
  if (Array.isArray(value)) return '(an array)'
  return value === null ? '(null)' : `(a ${typeof value})`
}

/** The brain named by the request: X-Brain-ID, then `brain_id` in the query, then in a JSON body. */
export function requestedBrain(request: FastifyRequest): string | null {
  const candidates: [string, unknown][] = [
    ['header.x-brain-id', headerValue(request.headers['x-brain-id'])],
    ['query.brain_id', (request.query as Record<string, unknown> | undefined)?.brain_id],
    [
      'body.brain_id',
      request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>).brain_id
        : undefined,
    ],
  ]
  for (const [where, value] of candidates) {
    if (value === undefined || value === null || value === '') continue
    const id = Array.isArray(value) ? value[0] : value
    if (
      typeof id !== 'string' ||
      !BRAIN_ID_PATTERN.test(id.trim()) ||
      RESERVED_BRAIN_IDS.has(id.trim())
    ) {
      throw invalidBrainId(where, shown(id))
    }
    return id.trim()
  }
  return null
}

/**
 * Selects the brain for a principal (CONTRACT.md section 1): a brain token reaches only its brain, the
 * system token reaches any, defaulting to DEFAULT_BRAIN. The brain must exist (asked of the catalogue
 * at most once a second per brain, see known-brains.ts).
 */
export async function selectBrain(
  engram: Engram,
  principal: Principal,
  requested: string | null,
): Promise<string> {
  let brainId: string
  if (principal.kind === 'brain') {
    if (requested !== null && requested !== principal.brainId) {
      throw new EngramError(
        'AUTH_INVALID',
        'This token does not give access to the selected brain.',
        {
          status: 403,
          resolution:
            'A brain token reaches only its own brain: select that brain (or none, and it is used), or use the system token for another brain.',
        },
      )
    }
    brainId = principal.brainId
  } else if (requested !== null) {
    brainId = requested
  } else if (engram.defaultBrain !== null) {
    brainId = engram.defaultBrain
  } else {
    throw new EngramError('BRAIN_ID_REQUIRED')
  }
  await knownBrainsOf(engram).require(brainId)
  return brainId
}

/**
 * Authentication runs at `onRequest` (headers only, so a bad token is a 401 before any body work) and
 * brain selection at `preValidation` (it may read `brain_id` from the parsed body).
 */
export function registerAuth(
  app: FastifyInstance,
  engram: Engram,
  options: { multipartBrain?: (request: FastifyRequest) => boolean } = {},
) {
  app.decorateRequest('principal', null)
  app.decorateRequest('brainId', '')

  app.addHook('onRequest', async (request) => {
    const auth = request.routeOptions.config?.auth ?? 'public'
    if (auth === 'public') return
    const token = tokenOf(request)
    if (token === null)
      throw new EngramError(
        'AUTH_INVALID',
        'Send a token in the ServicePAT header or as a Bearer token.',
      )
    const principal = await knownTokensOf(engram).authenticate(token)
    if (principal === null) throw new EngramError('AUTH_INVALID', 'The token is not valid.')
    if (auth === 'system' && principal.kind !== 'system') {
      throw new EngramError('AUTH_INVALID', 'This operation needs the system token.', {
        status: 403,
        resolution:
          'Call this operation with the system token (SERVICEPAT_TOKEN, or the one printed at first start); brain tokens cannot manage brains.',
      })
    }
    request.principal = principal
  })

  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config?.auth !== 'brain' || request.principal === null) return
    if (options.multipartBrain?.(request)) return
    request.brainId = await selectBrain(engram, request.principal, requestedBrain(request))
  })
}
