import type { Coordination, FeedHead } from '../contracts/coordination.js'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { Logger } from '../logger.js'
import { batchFromSummary } from './write-summary.js'

/** What the follower asks of the process's derived state (its in-memory indexes). */
export interface FollowTarget {
  /** Whether the process holds derived state of the brain: only then are records read back. */
  interested(brainId: string): boolean
  /** The brain's state missed writes (pruned from the feed): drop it; it is rebuilt from storage. */
  stale(brainId: string): void
}

export interface WriteFollowerOptions {
  coordination: Coordination
  store(brainId: string): Promise<BrainStore>
  /** Runs `work` under the brain's in-process write lock (the one local commits hold). */
  lock(brainId: string, work: () => Promise<void>): Promise<void>
  /** Hands a batch read back from storage to the commit listeners. */
  deliver(brainId: string, batch: WriteBatch): Promise<void>
  logger: Logger
  /** Polling period of the fallback for lost announcements (default 500 ms). */
  pollMs?: number
}

export interface WriteFollower {
  /** Follows the brain from its current head on; a no-op once it is followed. */
  track(brainId: string): Promise<void>
  /**
   * The last feed entry of the brain applied or skipped here (its indexes, if built, reflect every
   * entry up to it), or undefined when the brain is not followed.
   */
  seq(brainId: string): number | undefined
  /** Applies the writes of other processes this process has not seen; the caller holds the brain's lock. */
  catchUpLocked(brainId: string): Promise<void>
  /**
   * A write of this process to the brain may have committed without reaching the commit listeners
   * (the connection dropped during its COMMIT): the next catch-up applies this process's own entries
   * too, which upserts make harmless if they had reached them.
   */
  uncertain(brainId: string): void
  /** Which brains' derived state exists (the index manager registers itself). */
  setTarget(target: FollowTarget): void
  start(): Promise<void>
  stop(): Promise<void>
}

const PAGE = 200

/**
 * Keeps this process's indexes current with the writes other processes commit to the same database
 * (DESIGN.md section 5, "Scale-out"). Every write appends an entry to its brain's write feed; the
 * follower hears of it through the adapter's announcements (LISTEN/NOTIFY), or at the latest at the
 * next poll of the brains' heads, reads the entries this process has not applied, reads their records
 * back and hands them to the commit listeners, in feed order and under the brain's in-process write
 * lock, exactly as a local commit reaches them. Entries this process wrote itself are skipped: their
 * batches reached the listeners when they were committed.
 *
 * A brain is followed from its first use in this process (`track`, before its indexes are built, so
 * nothing committed in between is missed; an entry the build already saw is applied again, which
 * upserts change nothing by). A brain whose indexes are not loaded is only advanced, not read.
 */
export function createWriteFollower(options: WriteFollowerOptions): WriteFollower {
  const { coordination, logger } = options
  const feed = coordination.writes
  /** Per followed brain: the last feed entry its indexes reflect. */
  const known = new Map<string, number>()
  /** Per followed brain: the incarnation `known` counts in (`FeedHead.incarnation`). */
  const incarnations = new Map<string, string>()
  const tracking = new Map<string, Promise<void>>()
  /** Brains with a catch-up in progress; `true` when another was asked for meanwhile. */
  const syncing = new Map<string, boolean>()
  /** Brains whose next catch-up also applies this process's own entries (`uncertain`). */
  const replayOwn = new Set<string>()
  /** Whether the last poll failed: a database outage is logged when it starts and ends, not every poll. */
  let pollFailing = false
  let target: FollowTarget = { interested: () => false, stale: () => {} }
  let unsubscribe: (() => Promise<void>) | null = null
  let timer: NodeJS.Timeout | undefined
  let polling = false
  let stopped = true

  /**
   * Whether `head` is of the incarnation the follower counts in. If not (the brain was deleted, or
   * deleted and created again elsewhere: its numbering restarted), the brain's indexes are dropped, to
   * be rebuilt from storage, and it is followed from `head` on (or no longer, once deleted).
   */
  function sameIncarnation(brainId: string, head: FeedHead | undefined): boolean {
    if (head !== undefined && head.incarnation === incarnations.get(brainId)) return true
    if (target.interested(brainId)) target.stale(brainId)
    if (head === undefined) {
      known.delete(brainId)
      incarnations.delete(brainId)
    } else {
      known.set(brainId, head.seq)
      incarnations.set(brainId, head.incarnation)
    }
    return false
  }

  async function catchUpLocked(brainId: string): Promise<void> {
    if (!known.has(brainId)) return
    // Before reading entries: another incarnation's entries must never reach this one's indexes.
    if (!sameIncarnation(brainId, (await feed.heads([brainId])).get(brainId))) return
    let seq = known.get(brainId)!
    const store = await options.store(brainId)
    const replay = replayOwn.has(brainId)
    for (;;) {
      const entries = await feed.since(brainId, seq, PAGE)
      if (entries.length === 0) break
      if (entries[0]!.seq !== seq + 1 && target.interested(brainId)) {
        logger.warn(
          { brainId, from: seq, next: entries[0]!.seq },
          'write feed gap: reloading indexes',
        )
        target.stale(brainId)
      }
      for (const entry of entries) {
        if ((replay || entry.origin !== coordination.origin) && target.interested(brainId))
          await options.deliver(brainId, await batchFromSummary(store, entry.summary))
        seq = entry.seq
        known.set(brainId, seq)
      }
      if (entries.length < PAGE) break
    }
    if (replay) replayOwn.delete(brainId)
  }

  /** Catches the brain up unless `head` is already applied; one catch-up per brain at a time. */
  function sync(brainId: string, head?: number): void {
    const seq = known.get(brainId)
    if (stopped || seq === undefined || (head !== undefined && head <= seq)) return
    if (syncing.has(brainId)) {
      syncing.set(brainId, true)
      return
    }
    syncing.set(brainId, false)
    void (async () => {
      try {
        do {
          syncing.set(brainId, false)
          await options.lock(brainId, () => catchUpLocked(brainId))
        } while (syncing.get(brainId) === true && !stopped)
      } catch (error) {
        // The next announcement or poll retries.
        logger.warn({ err: error, brainId }, 'write feed catch-up failed')
      } finally {
        syncing.delete(brainId)
      }
    })()
  }

  async function poll(): Promise<void> {
    if (polling || known.size === 0) return
    polling = true
    try {
      const heads = await feed.heads([...known.keys()])
      if (pollFailing) logger.info({}, 'write feed poll recovered')
      pollFailing = false
      for (const brainId of [...known.keys()]) {
        const head = heads.get(brainId)
        if (sameIncarnation(brainId, head)) sync(brainId, head!.seq)
      }
    } catch (error) {
      // Retried at the next poll; an outage is logged once, not twice a second.
      if (!pollFailing) logger.warn({ err: error }, 'write feed poll failed; retrying every poll')
      pollFailing = true
    } finally {
      polling = false
    }
  }

  return {
    track(brainId) {
      if (known.has(brainId)) return Promise.resolve()
      let pending = tracking.get(brainId)
      if (pending === undefined) {
        pending = feed
          .heads([brainId])
          .then((heads) => {
            if (known.has(brainId)) return
            // A brain missing from the feed (deleted meanwhile) is followed from 0 in no incarnation:
            // the next poll or catch-up drops it, or starts over if it exists again.
            const head = heads.get(brainId)
            known.set(brainId, head?.seq ?? 0)
            incarnations.set(brainId, head?.incarnation ?? '')
          })
          .finally(() => tracking.delete(brainId))
        tracking.set(brainId, pending)
      }
      return pending
    },
    catchUpLocked,
    seq: (brainId) => known.get(brainId),
    uncertain(brainId) {
      replayOwn.add(brainId)
    },
    setTarget(next) {
      target = next
    },
    async start() {
      stopped = false
      unsubscribe = await feed.subscribe((brainId, seq) => sync(brainId, seq))
      timer = setInterval(() => void poll(), options.pollMs ?? 500)
      timer.unref()
    },
    async stop() {
      stopped = true
      if (timer !== undefined) clearInterval(timer)
      await unsubscribe?.()
      unsubscribe = null
    },
  }
}
