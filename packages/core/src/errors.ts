/**
 * The error catalogue: every stable code with its HTTP status(es), default message and resolution.
 * Match errors by `code`, never by message. `docs/errors.md` has one row per code (a test checks it).
 * Pattern after fastify `lib/errors.js` and orama `src/errors.ts`.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_ERROR: {
    statuses: [400, 422],
    message: 'The request failed validation.',
    resolution: 'Correct the fields listed in `detail` and retry; do not retry unchanged.',
  },
  BRAIN_ID_REQUIRED: {
    statuses: [400],
    message: 'No brain was selected.',
    resolution: 'Send the X-Brain-ID header (or a brain_id query, body or multipart field).',
  },
  AUTH_INVALID: {
    statuses: [401, 403],
    message: 'Authentication failed.',
    resolution:
      'Send a valid token in the ServicePAT header or as a Bearer token, for the selected brain.',
  },
  BRAIN_NOT_FOUND: {
    statuses: [404],
    message: 'The selected brain does not exist.',
    resolution:
      'Create the brain with POST /system/brains or select an existing one with X-Brain-ID.',
  },
  RESOURCE_NOT_FOUND: {
    statuses: [404],
    message: 'The requested resource was not found.',
    resolution: 'Check the path, the identifier and the selected brain before retrying.',
  },
  METHOD_NOT_ALLOWED: {
    statuses: [405],
    message: 'The method is not allowed on this path.',
    resolution: 'Use one of the methods listed in the Allow header.',
  },
  REQUEST_TIMEOUT: {
    statuses: [408],
    message: 'The request was not received in time.',
    resolution: 'Send the whole request without pauses, on a new connection.',
  },
  BRAIN_EXISTS: {
    statuses: [409],
    message: 'A brain with this id already exists.',
    resolution: 'Choose another brain id, or use the existing brain.',
  },
  PAYLOAD_TOO_LARGE: {
    statuses: [413],
    message: 'The request body or file is over the configured limit.',
    resolution: 'Split the content into smaller requests or files.',
  },
  URI_TOO_LONG: {
    statuses: [414],
    message: 'A path segment of the URL is over the length limit.',
    resolution:
      'Keep each path parameter to at most 500 characters; send long values in the query or body.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    statuses: [415],
    message: 'The content type is not supported.',
    resolution: 'Send one of the supported types: txt, md, json, jsonl, csv, html, pdf.',
  },
  RATE_LIMITED: {
    statuses: [429],
    message: 'Too many requests.',
    resolution:
      'Wait for the number of seconds in the Retry-After header, then retry with backoff.',
  },
  HEADERS_TOO_LARGE: {
    statuses: [431],
    message: 'The request line and headers are over the size limit.',
    resolution:
      'Send a shorter URL and fewer or smaller headers (16 KB in all); put long values in the body.',
  },
  INTERNAL_ERROR: {
    statuses: [500],
    message: 'Internal server error.',
    resolution: 'Retry later; if it persists, report the request_id to the operator.',
  },
  NOT_IMPLEMENTED: {
    statuses: [501],
    message: 'This operation is not implemented yet.',
    resolution:
      'Upgrade the server; the operation is listed in the contract but not served by this version.',
  },
  SERVICE_UNAVAILABLE: {
    statuses: [503],
    message: 'The service is temporarily unavailable.',
    resolution:
      'Retry after the number of seconds in the Retry-After header, with bounded backoff.',
  },
} as const satisfies Record<
  string,
  { statuses: readonly number[]; message: string; resolution: string }
>

export type ErrorCode = keyof typeof ERROR_CATALOGUE
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[]

export interface EngramErrorOptions {
  /** HTTP status; defaults to the code's first status. Must be one of the code's statuses. */
  status?: number
  /** Legacy `detail` value of the envelope; defaults to the message. */
  detail?: unknown
  resolution?: string
  /** Seconds a client should wait (429, 503). */
  retryAfter?: number
  cause?: unknown
  /**
   * Load shedding: the server refuses by design (a full task queue, too many change streams, shutting
   * down), nothing failed. The server logs it at debug rather than as a failed request.
   */
  shed?: boolean
}

/** An error the engine and server know how to report: a stable code, a status and a resolution. */
export class EngramError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly resolution: string
  readonly detail: unknown
  readonly retryAfter: number | undefined
  /** `EngramErrorOptions.shed`. */
  readonly shed: boolean

  constructor(code: ErrorCode, message?: string, options: EngramErrorOptions = {}) {
    const entry = ERROR_CATALOGUE[code]
    super(
      message ?? entry.message,
      options.cause === undefined ? undefined : { cause: options.cause },
    )
    this.name = 'EngramError'
    this.code = code
    const statuses: readonly number[] = entry.statuses
    this.status =
      options.status !== undefined && statuses.includes(options.status)
        ? options.status
        : statuses[0]!
    this.resolution = options.resolution ?? entry.resolution
    this.detail = options.detail ?? this.message
    this.retryAfter = options.retryAfter
    this.shed = options.shed === true
  }
}

export function engramError(
  code: ErrorCode,
  message?: string,
  options?: EngramErrorOptions,
): EngramError {
  return new EngramError(code, message, options)
}

export function isEngramError(error: unknown): error is EngramError {
  return error instanceof EngramError
}

/** 400 for a plugin name that is not loaded, naming the loaded alternatives (CONTRACT.md section 7). */
export function unknownPluginError(
  kind: string,
  name: string,
  loaded: readonly string[],
): EngramError {
  const options = loaded.length > 0 ? loaded.join(', ') : '(none loaded)'
  return new EngramError('VALIDATION_ERROR', `Unknown ${kind} '${name}'. Loaded: ${options}.`, {
    status: 400,
    resolution: `Use one of: ${options}.`,
  })
}

/** Seconds a client refused by a stopping server waits before it retries (`shuttingDown`). */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5

/**
 * The 503 of a server that is stopping, from whichever part refused first (the task queue, the HTTP
 * closing guard, the change-stream hub): a refusal by design (`shed`), to retry after
 * `SHUTDOWN_RETRY_AFTER_SECONDS`, when another process may answer.
 */
export function shuttingDown(resolution?: string): EngramError {
  return new EngramError('SERVICE_UNAVAILABLE', 'The server is shutting down.', {
    retryAfter: SHUTDOWN_RETRY_AFTER_SECONDS,
    ...(resolution === undefined ? {} : { resolution }),
    shed: true,
  })
}

export function notFound(what: string, id?: string): EngramError {
  return new EngramError(
    'RESOURCE_NOT_FOUND',
    id === undefined ? `${what} not found.` : `${what} '${id}' not found.`,
  )
}

/**
 * Storage that cannot serve now: a connection dropped or refused (the database restarted, an
 * administrator ended the session, a failover). A 503 like any SERVICE_UNAVAILABLE, and transient:
 * the same call may succeed once the adapter has reconnected, so the task queue retries the task's
 * work after a backoff instead of failing the task. Adapters throw it for those errors only
 * (`docs/writing-an-adapter.md`); anything else storage throws is a failure.
 */
export class StorageUnavailableError extends EngramError {
  constructor(cause: unknown, message = 'The database is unavailable.') {
    super('SERVICE_UNAVAILABLE', message, {
      retryAfter: 1,
      cause,
      resolution: 'Retry in a moment: the server reconnects to its database on its own.',
    })
    this.name = 'StorageUnavailableError'
  }
}

export function isStorageUnavailable(error: unknown): error is StorageUnavailableError {
  return error instanceof StorageUnavailableError
}
