import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { EngramError, isEngramError } from '@engram/core'
import { customIssueType } from '../schemas/free-form-map.js'

const LOCATION: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
}

/** Turns a zod validation failure into the 422 `detail` list of `{loc, msg, type}`. */
function validationError(error: FastifyError): EngramError {
  const where = LOCATION[error.validationContext ?? 'body'] ?? 'body'
  const detail = (error.validation ?? []).map((issue) => ({
    loc: [where, ...issue.instancePath.split('/').filter((s) => s.length > 0)],
    msg: issue.message ?? 'invalid value',
    // fastify-type-provider-zod moves the zod issue's code to `keyword` and the rest to `params`: a
    // custom check (a free-form map's limits) names its own type in the issue's own `params`.
    type:
      customIssueType({
        code: issue.keyword,
        params: (issue.params as { params?: unknown } | undefined)?.params,
      }) ?? issue.keyword,
  }))
  return new EngramError('VALIDATION_ERROR', 'The request failed validation.', {
    status: 422,
    detail,
  })
}

/** Maps anything thrown while handling a request to an EngramError (internals never leak). */
export function toEngramError(error: unknown): EngramError {
  if (isEngramError(error)) return error
  const e = error as FastifyError
  if (hasZodFastifySchemaValidationErrors(e)) return validationError(e)
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new EngramError(
        'PAYLOAD_TOO_LARGE',
        'The request body or file is over the configured limit.',
      )
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new EngramError(
        'UNSUPPORTED_MEDIA_TYPE',
        'The content type of the request is not supported.',
        {
          resolution: 'Send application/json bodies (multipart/form-data for /ingest/file).',
        },
      )
    case 'FST_ERR_BAD_URL':
      return new EngramError('VALIDATION_ERROR', 'The URL path is not valid.', {
        status: 400,
        resolution: 'Percent-encode the path as UTF-8 (RFC 3986), e.g. %20 for a space.',
      })
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new EngramError('URI_TOO_LONG')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new EngramError('VALIDATION_ERROR', 'The body is not valid JSON.', {
        status: 422,
        detail: [{ loc: ['body'], msg: 'invalid JSON body', type: 'json_invalid' }],
      })
  }
  // A deadline (`AbortSignal.timeout`) that passed: the server is too busy now, not broken.
  if ((error as Error)?.name === 'TimeoutError')
    return new EngramError('SERVICE_UNAVAILABLE', 'The request did not finish in time.', {
      retryAfter: 5,
      cause: error,
    })
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 413) return new EngramError('PAYLOAD_TOO_LARGE')
    if (e.statusCode === 415) return new EngramError('UNSUPPORTED_MEDIA_TYPE')
    if (e.statusCode === 429) return new EngramError('RATE_LIMITED')
    return new EngramError('VALIDATION_ERROR', 'The request is malformed.', {
      status: 422,
      detail: [{ loc: ['request'], msg: 'malformed request', type: 'request_invalid' }],
    })
  }
  return new EngramError('INTERNAL_ERROR', undefined, { cause: error })
}

/** The envelope `{detail, error: {code, message, resolution, request_id}}` (CONTRACT.md section 1). */
export function envelope(error: EngramError, requestId: string) {
  return {
    detail: error.detail,
    error: {
      code: error.code,
      message: error.message,
      resolution: error.resolution,
      request_id: requestId,
    },
  }
}

/** Sends `error` in the envelope, with Retry-After when it has one. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: EngramError) {
  if (error.retryAfter !== undefined) void reply.header('Retry-After', String(error.retryAfter))
  return reply.status(error.status).send(envelope(error, request.id))
}
