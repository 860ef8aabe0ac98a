import { connect } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
  /** A socket error seen while writing or reading (EPIPE, ECONNRESET), or null. */
  error: string | null
}

/**
 * Sends bytes over a fresh TCP connection the way a careless client does: it writes the whole request
 * and reads nothing until every byte is written, then reads one response (Content-Length framed, or
 * until the server closes). A server that closes early makes the writes fail (EPIPE) or the connection
 * reset (ECONNRESET); both land in `error`, with whatever response arrived before.
 */
export function rawExchange(
  port: number,
  request: (string | Buffer)[],
  options: { timeoutMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let error: string | null = null
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(parseResponse(received, error))
    }
    const timer = setTimeout(() => {
      error ??= 'timeout'
      finish()
    }, options.timeoutMs ?? 20_000)
    socket.pause()
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      if (complete(received)) finish()
    })
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message
      finish()
    })
    socket.on('close', finish)
    let pending = request.length
    for (const part of request) {
      socket.write(part, (e) => {
        if (e) error ??= `write ${(e as NodeJS.ErrnoException).code ?? e.message}`
        if (--pending === 0) socket.resume()
      })
    }
  })
}

function headerEnd(bytes: Buffer): number {
  return bytes.indexOf('\r\n\r\n')
}

/** Drops interim 1xx responses (`100 Continue`) ahead of the final one. */
function finalResponse(bytes: Buffer): Buffer {
  let rest = bytes
  while (/^HTTP\/1\.[01] 1\d\d /.test(rest.subarray(0, 13).toString('latin1'))) {
    const end = headerEnd(rest)
    if (end === -1) break
    rest = rest.subarray(end + 4)
  }
  return rest
}

function complete(received: Buffer): boolean {
  const bytes = finalResponse(received)
  const end = headerEnd(bytes)
  if (end === -1) return false
  const head = bytes.subarray(0, end).toString('latin1')
  // An event stream (the change stream) does not end: its head is the whole answer.
  if (/\r\ncontent-type:\s*text\/event-stream/i.test(head)) return true
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
  return length !== null && bytes.length >= end + 4 + Number(length[1])
}

function parseResponse(received: Buffer, error: string | null): RawResponse {
  const bytes = finalResponse(received)
  const end = headerEnd(bytes)
  if (end === -1) return { status: 0, headers: {}, body: bytes.toString('utf8'), error }
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0)
  const length = headers['content-length']
  const body = bytes.subarray(end + 4, length === undefined ? undefined : end + 4 + Number(length))
  return { status, headers, body: body.toString('utf8'), error }
}
