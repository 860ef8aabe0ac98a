import { request, type IncomingMessage } from 'node:http'
import { conditionWaiter } from '@engram/core/testing'

export interface SseEvent {
  id: string | undefined
  event: string | undefined
  data: string
}

export interface SseSubscriber {
  status: number
  /** Response headers, names in lower case. */
  headers: IncomingMessage['headers']
  /** The body of a refused request (status other than 200). */
  body: string
  events: SseEvent[]
  /** Comment lines, without the leading colon (`' ping'`). */
  comments: string[]
  retry: number | undefined
  /** The last event ID as an EventSource keeps it (set by `id:` even without data; not reset). */
  lastEventId: string
  /** Whether the server ended the stream. */
  ended: boolean
  /** Resolves once `ready()` holds, re-checked on every line received and at the end. */
  until(ready: () => boolean): Promise<void>
  /** Leaves (aborts the request). */
  close(): void
}

/**
 * A minimal EventSource for tests (WHATWG HTML section 9.2.6, "Interpreting an event stream"): fetches
 * `url`, and once the response is 200 parses its body as it arrives: fields `id`, `event`, `data`,
 * `retry`, comment lines, an event dispatched at each blank line (one with data; an `id` alone only
 * sets the last event ID). It resolves when the response headers
 * arrived, which for the change stream means the server has subscribed it.
 */
export async function sseSubscriber(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<SseSubscriber> {
  // node:http on a connection of its own (no agent): closing it closes the socket, so a server that
  // closes does not wait on a pooled keep-alive connection of the test's.
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request(url, { method, headers, agent: false }, resolve).on('error', reject).end()
  })
  const waiter = conditionWaiter()
  const subscriber: SseSubscriber = {
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: '',
    events: [],
    comments: [],
    retry: undefined,
    lastEventId: '',
    ended: false,
    until: (ready) => waiter.until(ready),
    close: () => response.destroy(),
  }
  if (response.statusCode !== 200) {
    subscriber.body = await text(response)
    return subscriber
  }
  void (async () => {
    let buffer = ''
    let pending: SseEvent = { id: undefined, event: undefined, data: '' }
    let hasData = false
    let idBuffer = ''
    const line = (text: string) => {
      if (text === '') {
        subscriber.lastEventId = idBuffer
        if (hasData)
          subscriber.events.push({ ...pending, id: idBuffer, data: pending.data.slice(0, -1) })
        pending = { id: undefined, event: undefined, data: '' }
        hasData = false
      } else if (text.startsWith(':')) subscriber.comments.push(text.slice(1))
      else {
        const colon = text.indexOf(':')
        const field = colon < 0 ? text : text.slice(0, colon)
        const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '')
        if (field === 'data') {
          pending.data += `${value}\n`
          hasData = true
        } else if (field === 'id') idBuffer = value
        else if (field === 'event') pending.event = value
        else if (field === 'retry') subscriber.retry = Number(value)
      }
      waiter.notify()
    }
    try {
      response.setEncoding('utf8')
      for await (const chunk of response) {
        buffer += chunk as string
        let newline: number
        while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const crlf = buffer.startsWith('\r\n', newline)
          line(buffer.slice(0, newline))
          buffer = buffer.slice(newline + (crlf ? 2 : 1))
        }
      }
    } catch {
      // Destroyed by close(), or the connection dropped: either way the stream is over.
    }
    subscriber.ended = true
    waiter.notify()
  })()
  return subscriber
}

async function text(response: IncomingMessage): Promise<string> {
  let body = ''
  response.setEncoding('utf8')
  for await (const chunk of response) body += chunk as string
  return body
}
