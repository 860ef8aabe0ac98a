import type { IncomingMessage } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * How much of a request body the server still reads, and for how long, when it answers before reading
 * it (413 over the body limit, a failed multipart read, a 401 on a POST): beyond either, it answers
 * and closes, and a client still writing may see a reset.
 */
const UNREAD_BODY_DRAIN = { bytes: 64 * 1024 * 1024, ms: 10_000 }

/** Reads and discards the rest of `raw`; true when it ended within the bounds. */
function discardRest(
  raw: IncomingMessage,
  bounds: { bytes: number; ms: number },
): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0
    const finish = (ended: boolean) => {
      clearTimeout(timer)
      raw.off('data', onData)
      raw.off('end', onEnd)
      raw.off('close', onClose)
      resolve(ended)
    }
    const onData = (chunk: Buffer) => {
      seen += chunk.length
      if (seen > bounds.bytes) finish(false)
    }
    const onEnd = () => finish(true)
    const onClose = () => finish(raw.complete)
    const timer = setTimeout(() => finish(false), bounds.ms)
    // A parser still piped from the body (a multipart read left early) would stall the flow.
    raw.unpipe()
    raw.on('data', onData)
    raw.once('end', onEnd)
    raw.once('close', onClose)
    raw.resume()
  })
}

/**
 * onSend: an answer that goes out while the request body is still arriving waits until the rest has
 * been read and discarded (within UNREAD_BODY_DRAIN). Without this, Node closes the socket right
 * after the answer (Fastify marks body-parse failures `Connection: close`) with unread bytes on it:
 * the kernel resets the connection, and a client that writes the whole body before reading (Node's
 * fetch, undici) gets EPIPE or ECONNRESET instead of the 413. A body that goes on past the bounds is
 * answered then, with `Connection: close`. The cost: a client that reads early sees the answer only
 * once it has sent its body.
 */
export function drainUnreadBody(
  request: FastifyRequest,
  reply: FastifyReply,
  done: () => void,
): void {
  const raw = request.raw
  // `complete`: Node's parser has the whole message; `readableEnded`: the body was read (inject).
  // The usual case, every request whose body was read, costs no promise.
  if (raw.complete || raw.readableEnded || raw.destroyed) return done()
  void discardRest(raw, UNREAD_BODY_DRAIN).then((ended) => {
    if (!ended) void reply.header('Connection', 'close')
    done()
  })
}
