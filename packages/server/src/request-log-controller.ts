import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'

/** Levels at which a `debug` line is written. */
const DEBUG_LEVELS = new Set(['debug', 'trace'])

/**
 * Fastify's own request log lines, quieter: one line a request, at `debug` (a CLI ingest of a folder is
 * thousands of requests, each two `info` lines by default), or at `info` when it took `slowRequestMs` or
 * longer. The path only: a query string holds the user's words. `info` is thus left to the start,
 * the configuration, slow requests and failures (5xx are logged by the app's error handler). The line
 * is written when the response has finished and never delays it.
 */
export function requestLogController(slowRequestMs: number): LogController {
  return new (class extends LogController {
    override incomingRequest() {}

    override routeNotFound() {}

    override requestCompleted(_error: unknown, request: FastifyRequest, reply: FastifyReply) {
      const ms = Math.round(reply.elapsedTime)
      // A change stream (Server-Sent Events) lasts as long as its client stays: long is not slow.
      const streamed = String(reply.getHeader('content-type')).startsWith('text/event-stream')
      const slow = ms >= slowRequestMs && !streamed
      // Nothing built for a line the level drops: this runs on every request.
      if (!slow && !DEBUG_LEVELS.has(request.log.level)) return
      const line = {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms,
      }
      if (slow) request.log.info(line, 'slow request')
      else request.log.debug(line, 'request')
    }
  })()
}
