import { connect, createServer, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { clientErrorHandler } from './framework-errors.js'

/** A connected pair: `server` is the accepted socket the handler writes to, `client` reads. */
async function socketPair(): Promise<{ server: Socket; client: Socket; close(): void }> {
  const listener = createServer()
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve))
  const address = listener.address() as { port: number }
  const client = connect(address.port, '127.0.0.1')
  const server = await accepted
  return {
    server,
    client,
    close() {
      client.destroy()
      server.destroy()
      listener.close()
    },
  }
}

const received = (client: Socket) =>
  new Promise<string>((resolve) => {
    let text = ''
    client.on('data', (chunk: Buffer) => (text += chunk.toString()))
    client.on('end', () => resolve(text))
  })

const error = (code: string) => Object.assign(new Error(code), { code })

let cleanup: (() => void) | undefined
afterEach(() => cleanup?.())

describe('clientErrorHandler', () => {
  it('answers a request timeout with the 408 envelope, once, then ends the connection', async () => {
    const pair = await socketPair()
    cleanup = pair.close
    const answer = received(pair.client)
    clientErrorHandler(error('ERR_HTTP_REQUEST_TIMEOUT'), pair.server)
    // The parser reports every later chunk as another error: answered only once.
    clientErrorHandler(error('HPE_INVALID_METHOD'), pair.server)
    pair.client.end()
    const text = await answer
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1)
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    const requestId = /\r\nX-Request-ID: ([0-9a-f-]{36})\r\n/.exec(text)?.[1]
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as {
      error: { code: string; request_id: string }
    }
    expect(body.error.code).toBe('REQUEST_TIMEOUT')
    expect(body.error.request_id).toBe(requestId)
  })

  it('maps header overflow to 431, chunk extensions to 413 and anything else to 400', async () => {
    for (const [code, status, catalogue] of [
      ['HPE_HEADER_OVERFLOW', 431, 'HEADERS_TOO_LARGE'],
      ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'PAYLOAD_TOO_LARGE'],
      ['HPE_INVALID_CONSTANT', 400, 'VALIDATION_ERROR'],
    ] as const) {
      const pair = await socketPair()
      const answer = received(pair.client)
      clientErrorHandler(error(code), pair.server)
      pair.client.end()
      const text = await answer
      expect(text.startsWith(`HTTP/1.1 ${status} `)).toBe(true)
      expect(text).toContain(`"code":"${catalogue}"`)
      pair.close()
    }
  })

  it('writes nothing on a reset connection', async () => {
    const pair = await socketPair()
    cleanup = pair.close
    let text = ''
    pair.client.on('data', (chunk: Buffer) => (text += chunk.toString()))
    clientErrorHandler(error('ECONNRESET'), pair.server)
    // The handler writes synchronously when it writes at all: nothing queued means nothing sent,
    // with no wait for bytes that might have arrived.
    expect(pair.server.bytesWritten).toBe(0)
    expect(text).toBe('')
  })
})
