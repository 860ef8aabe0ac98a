import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { conditionWaiter } from '@engram/core/testing'

/** One scripted answer; `hang` never answers (for timeouts and aborts). */
export interface ScriptedReply {
  status?: number
  headers?: Record<string, string>
  /** An object is sent as JSON, a string as is. */
  body?: unknown
  hang?: boolean
}

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: unknown
  /** ms since the server started. */
  at: number
}

/** A recorded response body from `test-fixtures/`. */
export function fixture(name: string): unknown {
  const url = new URL(`../../test-fixtures/${name}`, import.meta.url)
  return JSON.parse(readFileSync(url, 'utf8')) as unknown
}

/**
 * A local HTTP server speaking just enough of the chat-completions protocol for tests: it records
 * every request and answers with the scripted replies in order (500 once they run out). Tests wait
 * on what it saw (`untilRequests`, `untilCancelled`), never on a clock.
 */
export async function fakeChatServer(replies: ScriptedReply[]) {
  const started = performance.now()
  const requests: RecordedRequest[] = []
  const state = { cancelled: 0 }
  /** Conditions tests wait for, re-checked at every request and cancellation. */
  const { notify: changed, until } = conditionWaiter()
  const server = createServer((req, res) => {
    let raw = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (raw += chunk))
    req.on('end', () => {
      let body: unknown = raw
      try {
        body = JSON.parse(raw)
      } catch {
        // keep the raw text
      }
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        at: performance.now() - started,
      })
      changed()
      const reply = replies.shift() ?? {
        status: 500,
        body: { error: { message: 'no reply left' } },
      }
      if (reply.hang) {
        res.on('close', () => {
          state.cancelled++
          changed()
        })
        return
      }
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {})
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
      res.end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Requests whose client went away before an answer (aborted or timed out). */
    get cancelled() {
      return state.cancelled
    },
    /** Resolves once `n` requests have arrived (recorded, whether answered yet or not). */
    untilRequests: (n: number) => until(() => requests.length >= n),
    /** Resolves once `n` unanswered requests were given up by their client. */
    untilCancelled: (n: number) => until(() => state.cancelled >= n),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
