/** What one block of a `text/event-stream` (up to a blank line) said. */
export interface EventStreamBlock {
  /** The last event ID after this block: set by an `id:` field, kept until the next one. */
  lastEventId: string
  /** The `event:` field, or `message` when there was none. */
  event: string
  /** The `data:` lines joined by `\n`; null when the block had none (it dispatches no event). */
  data: string | null
  /** The `retry:` field in ms, when the block had a valid one. */
  retry: number | null
}

/**
 * Parses a Server-Sent Events body as the WHATWG HTML standard says an EventSource does (section
 * 9.2.6, "Interpreting an event stream"): lines end with CRLF, LF or CR; `:` starts a comment; a
 * field's value loses one leading space; `id` containing NUL is ignored; `retry` takes digits only;
 * a blank line ends a block. Yields one block per blank line that followed a field. Works on
 * `Response.body` in Node 20+ and browsers.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<EventStreamBlock, void, undefined> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let lastEventId = ''
  let event = ''
  let data: string[] = []
  let retry: number | null = null
  let fields = false
  try {
    for (;;) {
      const { value, done } = await reader.read()
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true })
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/)
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (end < 0 || (end === buffer.length - 1 && buffer[end] === '\r' && !done)) break
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1))
        if (line === '') {
          if (fields)
            yield {
              lastEventId,
              event: event || 'message',
              data: data.length ? data.join('\n') : null,
              retry,
            }
          event = ''
          data = []
          retry = null
          fields = false
          continue
        }
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
        fields = true
        if (field === 'data') data.push(text)
        else if (field === 'event') event = text
        else if (field === 'id' && !text.includes('\0')) lastEventId = text
        else if (field === 'retry' && /^\d+$/.test(text)) retry = Number(text)
      }
      if (done) return
    }
  } finally {
    // Leaving early (the caller stopped iterating, or aborted): let go of the connection.
    await reader.cancel().catch(() => {})
  }
}
