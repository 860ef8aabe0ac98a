import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { SHUTDOWN_RETRY_AFTER_SECONDS, shuttingDown } from '@engram/core'

/**
 * While the server closes (from `app.close()` on), a request that still arrives, on a connection
 * that was busy when the listener closed, answers 503 SERVICE_UNAVAILABLE in the error envelope with
 * `Retry-After` and `Connection: close`, before any work. Fastify's own answer
 * (`return503OnClosing`, which the app turns off for this) is a bare JSON body that is not the
 * envelope, without `X-Request-ID` or `Retry-After`. Requests already running finish as usual.
 */
export function registerClosingGuard(app: FastifyInstance): void {
  let closing = false
  const sockets = new Set<Socket>()
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  // preClose runs as soon as close() starts, before the listener and idle connections are closed.
  app.addHook('preClose', (done) => {
    closing = true
    // A connection that never sent a byte holds no request, yet Node counts it as busy until its
    // headersTimeout (60 s), so close() would wait that long. Such connections are common: undici's
    // fetch opens a spare one whenever a streaming response (the change stream) is aborted
    // (nodejs/undici#5845). Nothing is lost by closing them.
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy()
    done()
  })
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done()
    void reply.header('Connection', 'close')
    done(shuttingDown(`Retry after ${SHUTDOWN_RETRY_AFTER_SECONDS} seconds, on a new connection.`))
  })
}
