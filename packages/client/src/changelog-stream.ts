import { EngramError } from './engram-error.js'
import { readEventStream } from './event-stream.js'
import type { components } from './generated/engram-api.js'
import { sleep } from './retrying-fetch.js'

type Changelog = components['schemas']['Changelog']

/** One changelog entry as the stream sent it. */
export interface ChangelogEvent {
  /** The entry's per-brain sequence number: pass it as `after` to resume from here later. */
  seq: number
  /** The entry's type (`node_created`, `source_forgotten`, ...). */
  type: string
  /** The entry, as `GET /retrieve/changelogs` lists it. */
  entry: Changelog
}

export interface ChangelogStreamOptions {
  /** Start after this `seq` (`0`: the whole changelog first); default: only entries written from now on. */
  after?: number
  /** Only entries of these types. */
  types?: string[]
  /** The brain, when the client has none or another one. */
  brain?: string
  /** Stops the stream: the iteration ends without an error. */
  signal?: AbortSignal
  /**
   * Reconnect when the connection drops or the server ends the stream (it restarts, a load balancer
   * cut it), resuming after the last entry received: no gap, no repeat (default true). The first
   * connection's errors are thrown; a reconnection that the server refuses with a 4xx is thrown too.
   * With false, the iteration ends when the connection does.
   */
  reconnect?: boolean
}

/** Opens one connection: `lastEventId` null for the first one without `after`. */
export type ChangelogStreamConnect = (
  lastEventId: string | null,
  signal: AbortSignal,
) => Promise<Response>

/** The server's `retry:` hint until it sends one. */
const DEFAULT_RETRY_MS = 3000

/**
 * `GET /retrieve/changelogs/stream` as an async iterable of typed entries (docs/change-stream.md).
 * Remembers the stream's last event ID (also the start position the server sends before any entry),
 * and on a drop waits the server's `retry:` hint and reconnects with `Last-Event-ID`. Stop it with
 * `options.signal`, or by leaving the `for await` loop.
 */
export async function* changelogStream(
  connect: ChangelogStreamConnect,
  options: ChangelogStreamOptions = {},
): AsyncGenerator<ChangelogEvent, void, undefined> {
  const stop = new AbortController()
  const onAbort = () => stop.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', onAbort, { once: true })
  if (options.signal?.aborted) onAbort()
  let lastEventId: string | null = options.after === undefined ? null : String(options.after)
  let retryMs = DEFAULT_RETRY_MS
  let connected = false
  try {
    while (!stop.signal.aborted) {
      let response: Response
      try {
        response = await connect(lastEventId, stop.signal)
      } catch (error) {
        if (stop.signal.aborted) return
        if (!connected || !transient(error)) throw error
        await pause(retryMs, stop.signal)
        continue
      }
      if (!response.ok) {
        const error = EngramError.fromResponse(response, await response.json().catch(() => null))
        if (!connected || !transient(error)) throw error
        await pause(retryMs, stop.signal)
        continue
      }
      connected = true
      try {
        for await (const block of readEventStream(response.body!)) {
          if (block.retry !== null) retryMs = block.retry
          lastEventId = block.lastEventId
          if (block.data === null) continue
          yield {
            seq: Number(block.lastEventId),
            type: block.event,
            entry: JSON.parse(block.data) as Changelog,
          }
        }
      } catch (error) {
        // A dropped connection fails the read (a TypeError in fetch): reconnect as when the server
        // ends the stream. Data that is not JSON is no drop: the URL is not an Engram server's stream.
        if (stop.signal.aborted) return
        if (error instanceof SyntaxError) throw error
      }
      if (options.reconnect === false) return
      await pause(retryMs, stop.signal)
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort)
    stop.abort()
  }
}

/** Worth another attempt later: no answer, or 503/429 (shutting down, the open-stream limit). */
function transient(error: unknown): boolean {
  return error instanceof EngramError && [0, 429, 503].includes(error.status)
}

/** Waits, unless the stream is stopped meanwhile (then resolves at once; the loop sees it). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, signal).catch(() => {})
}
