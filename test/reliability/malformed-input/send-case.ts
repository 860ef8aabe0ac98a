import { rawExchange } from '../../support/raw-http.js'
import type { RequestCase } from './request-cases.js'

export interface Outcome {
  status: number
  requestId: string | null
  body: string
  /** A transport failure (reset, EPIPE, timeout), or null. */
  error: string | null
}

function requestBytes(base: URL, c: RequestCase): (string | Buffer)[] {
  // Through URL: spaces and non-ASCII in a generated path are percent-encoded, as a client would.
  const url = new URL(c.target, base)
  const lines = [`${c.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${base.host}`]
  for (const [name, value] of Object.entries(c.headers)) lines.push(`${name}: ${value}`)
  if (c.body !== null) lines.push(`Content-Length: ${c.body.length}`)
  lines.push('Connection: close', '', '')
  return c.body === null ? [lines.join('\r\n')] : [lines.join('\r\n'), c.body]
}

async function sendRaw(base: URL, c: RequestCase): Promise<Outcome> {
  const answer = await rawExchange(Number(base.port), c.bytes ?? requestBytes(base, c), {
    timeoutMs: 30_000,
  })
  return {
    status: answer.status,
    requestId: answer.headers['x-request-id'] ?? null,
    body: answer.body,
    error: answer.error,
  }
}

/**
 * Sends one case: by fetch (undici, pooled keep-alive connections), or over a fresh socket that
 * writes the whole request before reading (what a careless client does, and where an early close
 * shows up as a reset). fetch refuses a body on GET, so such cases go raw.
 */
export async function sendCase(baseUrl: string, c: RequestCase): Promise<Outcome> {
  const base = new URL(baseUrl)
  const raw =
    c.transport === 'raw' || (c.body !== null && (c.method === 'GET' || c.method === 'HEAD'))
  if (raw) return sendRaw(base, c)
  try {
    const res = await fetch(new URL(c.target, base), {
      method: c.method,
      headers: c.headers,
      ...(c.body !== null ? { body: c.body } : {}),
      signal: AbortSignal.timeout(30_000),
    })
    // An event stream (the change stream) does not end: its head is the whole answer.
    const endless = res.headers.get('content-type')?.startsWith('text/event-stream') === true
    if (endless) await res.body?.cancel()
    return {
      status: res.status,
      requestId: res.headers.get('x-request-id'),
      body: endless ? '' : await res.text(),
      error: null,
    }
  } catch (error) {
    const e = error as {
      name?: string
      message?: string
      cause?: { code?: string; message?: string }
    }
    // fetch refused to send it (a header value or method it will not encode): sent raw instead.
    if (e.name === 'TypeError' && e.cause === undefined) return sendRaw(base, c)
    return {
      status: 0,
      requestId: null,
      body: '',
      error: e.cause?.code ?? e.cause?.message ?? e.name ?? String(error),
    }
  }
}
