import {
  EngramError,
  shuttingDown,
  type BrainStore,
  type ChangelogEntry,
  type Engram,
} from '@engram/core'

/** Where a subscriber's entries go (one open `GET /retrieve/changelogs/stream`). */
export interface ChangelogSink {
  /** Called once, before any entry: the `seq` the stream starts after. */
  start(afterSeq: number): void
  /** Takes the next entry; false when its buffer is full: nothing more until `resume()`. */
  push(entry: ChangelogEntry): boolean
  /** The hub ends the stream: the server closes, or the brain was deleted (or created again). */
  end(): void
}

export interface ChangelogSubscription {
  /** The sink has room again (its client read): delivery goes on from where it paused. */
  resume(): void
  /** Leaves the hub (the client went away); idempotent. */
  close(): void
}

export interface ChangelogHubOptions {
  /**
   * With storage several processes share (`storage.coordination`): how often a brain with subscribers
   * is checked for entries written by other processes (default 250 ms).
   */
  pollMs?: number
  /** Open streams per brain in this process (default 100); the next one is refused with 503. */
  maxStreamsPerBrain?: number
  /** Open streams in this process, all brains (default 1,000). */
  maxStreams?: number
}

export interface ChangelogHub {
  /**
   * Delivers the brain's entries with `seq` above `afterSeq` to `sink`, oldest first, then every new
   * one. `afterSeq` null starts at the current end; one past the brain's last entry (the brain was
   * deleted and created again since the client's last event) is lowered to it. Throws
   * SERVICE_UNAVAILABLE past the limits or once the hub is closed.
   */
  subscribe(
    brainId: string,
    afterSeq: number | null,
    sink: ChangelogSink,
  ): Promise<ChangelogSubscription>
  /** Open streams in this process. */
  readonly size: number
  /** Ends every stream and stops listening (the server closes); later subscribes are refused. */
  close(): Promise<void>
}

interface Subscriber {
  /** The last `seq` handed to the sink or skipped past; null until the start is known. */
  cursor: number | null
  paused: boolean
  sink: ChangelogSink
}

/** One brain's subscribers and the one reader they share. */
interface BrainFeed {
  brainId: string
  store: Promise<BrainStore>
  subscribers: Set<Subscriber>
  reading: boolean
  /** A wake-up arrived while reading: read again once done. */
  again: boolean
  polling: boolean
  timer: NodeJS.Timeout | undefined
}

/** Entries read per `since` call. */
const PAGE = 200
const RETRY_AFTER_SECONDS = 5

/**
 * The change stream's per-process fan-out. Each brain with subscribers has one reader: woken by a
 * commit of this process (`onCommit`), by another process's write announcement (PostgreSQL NOTIFY,
 * best effort) and, with shared storage, by a poll of `changelog.lastSeq()` every `pollMs`, it reads
 * `changelog.since(lowest cursor)` in pages and hands each subscriber the entries past its own cursor.
 * Storage is the only source of entries, so a subscriber that joins late, falls behind (its client reads
 * slowly: it pauses and resumes) or reconnects with `Last-Event-ID` gets exactly the entries after its
 * cursor, each once. Why polling rather than the engine's write follower: docs/change-stream.md.
 */
export function createChangelogHub(
  engram: Engram,
  options: ChangelogHubOptions = {},
): ChangelogHub {
  const pollMs = options.pollMs ?? 250
  const maxPerBrain = options.maxStreamsPerBrain ?? 100
  const maxStreams = options.maxStreams ?? 1000
  const coordination = engram.storage.coordination
  const feeds = new Map<string, BrainFeed>()
  let open = 0
  let closed = false
  let pollFailing = false
  let announcements: Promise<(() => Promise<void>) | null> | null = null

  // The engine has no way to remove these: a closed hub ignores them.
  engram.onCommit((brainId, batch) => {
    if (!closed && (batch.changelog?.length ?? 0) > 0) wake(brainId)
  })
  engram.onBrainDeleted((brainId) => {
    const feed = feeds.get(brainId)
    if (feed !== undefined) endFeed(feed)
  })

  function wake(brainId: string): void {
    const feed = feeds.get(brainId)
    if (feed !== undefined) void drain(feed)
  }

  /** Other processes' writes, announced at their commit (PostgreSQL NOTIFY); taken at the first stream. */
  function listen(): void {
    if (coordination === undefined || announcements !== null) return
    announcements = coordination.writes
      .subscribe((brainId) => wake(brainId))
      .catch((error: unknown) => {
        engram.logger.warn({ err: error }, 'change stream: no write announcements; polling only')
        return null
      })
  }

  function feedOf(brainId: string): BrainFeed {
    let feed = feeds.get(brainId)
    if (feed !== undefined) return feed
    const store = engram.store(brainId)
    // Awaited by whoever needs it; a failure (the brain was deleted meanwhile) is theirs to report.
    store.catch(() => {})
    feed = {
      brainId,
      store,
      subscribers: new Set(),
      reading: false,
      again: false,
      polling: false,
      timer: undefined,
    }
    if (coordination !== undefined) {
      const polled = feed
      feed.timer = setInterval(() => void poll(polled), pollMs)
      feed.timer.unref()
      listen()
    }
    feeds.set(brainId, feed)
    return feed
  }

  function remove(feed: BrainFeed, subscriber: Subscriber): void {
    if (!feed.subscribers.delete(subscriber)) return
    open -= 1
    if (feed.subscribers.size === 0 && feeds.get(feed.brainId) === feed) {
      clearInterval(feed.timer)
      feeds.delete(feed.brainId)
    }
  }

  function endFeed(feed: BrainFeed): void {
    for (const subscriber of [...feed.subscribers]) {
      remove(feed, subscriber)
      subscriber.sink.end()
    }
  }

  /** Hands `entries` to the subscriber past its cursor, until its sink is full. */
  function deliver(feed: BrainFeed, subscriber: Subscriber, entries: ChangelogEntry[]): void {
    for (const entry of entries) {
      if (subscriber.paused || !feed.subscribers.has(subscriber)) return
      if (entry.seq <= subscriber.cursor!) continue
      subscriber.cursor = entry.seq
      if (!subscriber.sink.push(entry)) subscriber.paused = true
    }
  }

  async function readAll(feed: BrainFeed, store: BrainStore): Promise<void> {
    for (;;) {
      const ready = [...feed.subscribers].filter((s) => s.cursor !== null && !s.paused)
      if (ready.length === 0) return
      const from = Math.min(...ready.map((s) => s.cursor!))
      const entries = await store.changelog.since(from, PAGE)
      for (const subscriber of ready) deliver(feed, subscriber, entries)
      if (entries.length < PAGE) return
    }
  }

  /** Reads until every ready subscriber is current; one read per brain at a time. */
  async function drain(feed: BrainFeed): Promise<void> {
    if (feed.reading) {
      feed.again = true
      return
    }
    feed.reading = true
    try {
      const store = await feed.store
      do {
        feed.again = false
        await readAll(feed, store)
      } while (feed.again && !closed)
    } catch (error) {
      engram.logger.warn({ err: error, brainId: feed.brainId }, 'change stream read failed')
      // With shared storage the next poll reads again; otherwise nothing would until the next commit,
      // so the streams end and their clients resume with Last-Event-ID (no gap).
      if (coordination === undefined) endFeed(feed)
    } finally {
      feed.reading = false
    }
  }

  /**
   * Shared storage: another process may have written. A cursor past the brain's last entry means the
   * brain was deleted (or deleted and created again, numbering from 1) elsewhere: its streams end.
   */
  async function poll(feed: BrainFeed): Promise<void> {
    if (feed.reading || feed.polling || closed) return
    feed.polling = true
    try {
      // Cursors before reading the head: a read running meanwhile only moves them to entries that exist.
      const cursors = [...feed.subscribers].flatMap((s) => (s.cursor === null ? [] : [s.cursor]))
      const last = await (await feed.store).changelog.lastSeq()
      if (pollFailing) engram.logger.info({}, 'change stream poll recovered')
      pollFailing = false
      if (cursors.some((c) => c > last)) endFeed(feed)
      else if (cursors.some((c) => c < last)) void drain(feed)
    } catch (error) {
      if (!pollFailing) engram.logger.warn({ err: error }, 'change stream poll failed; retrying')
      pollFailing = true
    } finally {
      feed.polling = false
    }
  }

  function tooMany(scope: string): EngramError {
    return new EngramError('SERVICE_UNAVAILABLE', `Too many change streams are open ${scope}.`, {
      retryAfter: RETRY_AFTER_SECONDS,
      resolution: `Close streams you no longer read, or retry after ${RETRY_AFTER_SECONDS} seconds (another server process may have room).`,
      shed: true,
    })
  }

  return {
    async subscribe(brainId, afterSeq, sink) {
      if (closed) throw shuttingDown()
      if (open >= maxStreams) throw tooMany(`on this server (${maxStreams})`)
      if ((feeds.get(brainId)?.subscribers.size ?? 0) >= maxPerBrain)
        throw tooMany(`on this brain (${maxPerBrain})`)
      // Counted at once, before any await, so that concurrent requests cannot pass the limits together.
      const feed = feedOf(brainId)
      const subscriber: Subscriber = { cursor: null, paused: false, sink }
      feed.subscribers.add(subscriber)
      open += 1
      try {
        const last = await (await feed.store).changelog.lastSeq()
        subscriber.cursor = afterSeq === null ? last : Math.min(afterSeq, last)
      } catch (error) {
        remove(feed, subscriber)
        throw error
      }
      sink.start(subscriber.cursor)
      // An entry committed between lastSeq() and now woke nobody for this subscriber: read once.
      void drain(feed)
      return {
        resume() {
          if (!subscriber.paused) return
          subscriber.paused = false
          void drain(feed)
        },
        close: () => remove(feed, subscriber),
      }
    },
    get size() {
      return open
    },
    async close() {
      closed = true
      for (const feed of [...feeds.values()]) endFeed(feed)
      const unsubscribe = await announcements
      // Storage may be closing too: its listener connection goes with it.
      await unsubscribe?.().catch(() => {})
    },
  }
}
