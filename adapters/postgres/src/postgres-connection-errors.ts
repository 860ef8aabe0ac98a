import { StorageUnavailableError } from '@engram/core'

/**
 * SQLSTATEs of a session the server ended or would not start for now (PostgreSQL 15 documentation,
 * Appendix A): class 08 (connection exception) as a whole, and `admin_shutdown` (57P01, what
 * `pg_terminate_backend` and a fast shutdown send), `crash_shutdown` (57P02), `cannot_connect_now`
 * (57P03, starting up or in recovery), `too_many_connections` (53300).
 */
const SESSION_ENDED = new Set(['57P01', '57P02', '57P03', '53300'])

/** Socket errors of a connection that dropped or could not be opened (the server down or unreachable). */
const SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
])

/**
 * What `pg` itself says, without a code, when a connection ends under a client (node-postgres
 * `lib/client.js`: "Connection terminated unexpectedly", then "Client has encountered a connection
 * error and is not queryable" for the next query) or cannot be opened in time (pg-pool).
 */
const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
]

/**
 * SQLSTATEs of a server that refuses this process for good: `invalid_authorization_specification`
 * (28000), `invalid_password` (28P01), `invalid_catalog_name` (3D000: the database was dropped).
 * Reconnecting cannot help; an operator has to.
 */
const REFUSED = new Set(['28000', '28P01', '3D000'])

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined

/** Whether `error` says the connection dropped or could not be opened (so the same call may work later). */
export function isConnectionLost(error: unknown): boolean {
  const code = codeOf(error)
  if (typeof code === 'string')
    return code.startsWith('08') || SESSION_ENDED.has(code) || SOCKET.has(code)
  const message = error instanceof Error ? error.message : ''
  return PG_MESSAGES.some((text) => message.startsWith(text))
}

/** Whether the server refused a connection for a reason reconnecting cannot fix. */
export function isRefusedForGood(error: unknown): boolean {
  const code = codeOf(error)
  return typeof code === 'string' && REFUSED.has(code)
}

/**
 * The error to throw for `error`: a dropped or refused connection becomes `StorageUnavailableError`
 * (503, retried by the task queue); anything else is thrown as it is.
 */
export function storageError(error: unknown): unknown {
  return isConnectionLost(error) ? new StorageUnavailableError(error) : error
}

/** `promise.catch(rethrowStorageError)`: rethrows through {@link storageError}. */
export function rethrowStorageError(error: unknown): never {
  throw storageError(error)
}
