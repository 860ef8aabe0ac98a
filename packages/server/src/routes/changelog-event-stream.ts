import { Readable } from 'node:stream'
import type { ChangelogEntry } from '@engram/core'
import { toChangelog } from '../schemas/changelog-wire.js'
import type { ChangelogHub } from './changelog-stream-hub.js'

export interface ChangelogEventStreamOptions {
  brainId: string
  /** Entries after this `seq`; null: only entries written from now on. */
  afterSeq: number | null
  /** Only entries of these types (all when null); the others are skipped, not sent. */
  types: ReadonlySet<string> | null
  /** A comment line (`: ping`) after this long without anything sent. */
  heartbeatMs: number
  /** The `retry:` hint: how long an EventSource waits before it reconnects. */
  retryMs: number
  /**
   * Called when the response has not finished `ABANDON_MS` after the hub ended the stream (at
   * shutdown): its client stopped reading, and the response should be cut rather than waited for.
   */
  abandon: () => void
}

/** How long an ended stream may take to flush to its client before it is cut. */
const ABANDON_MS = 1000

/**
 * One Server-Sent Event per entry (WHATWG HTML, "Server-sent events", section 9.2): `id` is the entry's
 * per-brain `seq`, which the client sends back as `Last-Event-ID` to resume; `event` its type; `data`
 * its wire form, as `GET /retrieve/changelogs` lists it. JSON escapes line breaks, so `data` is one line.
 */
export function changelogEvent(entry: ChangelogEntry): string {
  const type = entry.type.replace(/[\r\n]/g, '')
  return `id: ${entry.seq}\nevent: ${type}\ndata: ${JSON.stringify(toChangelog(entry))}\n\n`
}

/**
 * The body of one `GET /retrieve/changelogs/stream`: a readable that the hub fills as entries come and
 * the reply pipes to the socket. It starts with the `retry:` hint and the position it starts after
 * (which also sends the headers at once), pings while idle so proxies keep the connection, pauses the hub's delivery while the socket
 * is full, and leaves the hub when destroyed (the client went away, Fastify destroys a piped body whose
 * response closed). The hub ends it at shutdown. Throws what `hub.subscribe` throws (503 past limits).
 */
export async function changelogEventStream(
  hub: ChangelogHub,
  options: ChangelogEventStreamOptions,
): Promise<Readable> {
  let subscription: { resume(): void; close(): void } | null = null
  let ended = false
  const stream: Readable = new Readable({
    read: () => subscription?.resume(),
    destroy(error, callback) {
      ended = true
      clearInterval(heartbeat)
      subscription?.close()
      callback(error)
    },
  })
  const heartbeat = setInterval(() => {
    if (!ended && stream.readableLength === 0) stream.push(': ping\n\n')
  }, options.heartbeatMs)
  heartbeat.unref()
  const { types } = options
  try {
    subscription = await hub.subscribe(options.brainId, options.afterSeq, {
      // An id without data sets the client's last event id and dispatches nothing (WHATWG HTML
      // 9.2.6): a client that drops before the first entry resumes from here, not from a later end.
      start(afterSeq) {
        stream.push(`retry: ${options.retryMs}\nid: ${afterSeq}\n\n`)
      },
      push(entry) {
        if (ended) return true
        if (types !== null && !types.has(entry.type)) return true
        return stream.push(changelogEvent(entry))
      },
      end() {
        if (ended) return
        ended = true
        stream.push(null)
        // A client that stopped reading would hold the response (and a closing server) open.
        setTimeout(options.abandon, ABANDON_MS).unref()
      },
    })
  } catch (error) {
    stream.destroy()
    throw error
  }
  // Destroyed while it subscribed: leave the hub now.
  if (stream.destroyed) subscription.close()
  return stream
}
