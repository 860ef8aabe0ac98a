import { loopYielder, type BrainStats, type BrainStore, type WriteBatch } from '@engram/core'
import { recordCount, sqliteBatchWrites } from './sqlite-batch-writes.js'
import { statementCache, type SqliteDatabaseLike } from './sqlite-database-like.js'
import { sqliteRepositories } from './sqlite-repositories.js'

export interface SqliteBrainStoreOptions {
  /** Records of a batch above which `apply` runs in slices (default 5,000; a text of a few megabytes is 100,000+). */
  slicedAbove?: number
  /** Work between two event-loop turns of a sliced `apply` (default 10 ms). */
  sliceMs?: number
  /**
   * Runs a WAL checkpoint of this database on another thread. When given, the COMMIT of a sliced
   * `apply` leaves the checkpoint to it instead of running it on this thread.
   */
  checkpointElsewhere?: () => Promise<void>
  /**
   * With `checkpointElsewhere`: the shortest time between the starts of two checkpoints that ordinary
   * (unsliced) commits hand to the other thread (default 1,000 ms; each starts a worker thread).
   */
  checkpointIntervalMs?: number
  /** `BrainStore.snapshotDir`: where the engine keeps this brain's index snapshot files (default none). */
  snapshotDir?: string
  /**
   * Closes the connection while the brain is cold (`BrainStore.release`; see
   * `sqlite-reopenable-database.ts`); during a sliced transaction or a checkpoint on the other thread,
   * called when they end, unless the store was used meanwhile.
   */
  release?: () => void
}

/** Checkpoint attempts of `purge` before it reports the WAL as not truncated. */
const PURGE_ATTEMPTS = 4

/** One brain's store over its own SQLite file. Statements are prepared once and reused. */
export function createSqliteBrainStore(
  brainId: string,
  db: SqliteDatabaseLike,
  options: SqliteBrainStoreOptions = {},
): BrainStore {
  const slicedAbove = options.slicedAbove ?? 5000
  const sliceMs = options.sliceMs ?? 10
  const stmt = statementCache(db)

  const { writes, putTask } = sqliteBatchWrites(stmt)

  /**
   * One batch in one transaction, begun IMMEDIATE: a deferred BEGIN takes the write lock at the first
   * write, and when a read came first (a changelog redaction reads each entry before rewriting it)
   * SQLite does not wait for the lock but fails at once with SQLITE_BUSY
   * (https://www.sqlite.org/lang_transaction.html): a forget failed so whenever the checkpoint thread
   * held the lock for its RESTART. Taking it at BEGIN waits through the busy timeout like any write.
   */
  function applyTx(batch: WriteBatch): void {
    db.exec('BEGIN IMMEDIATE')
    try {
      const steps = writes(batch)
      while (!steps.next().done);
      db.exec('COMMIT')
    } catch (error) {
      rollBack()
      throw error
    }
  }

  function rollBack(): void {
    try {
      db.exec('ROLLBACK')
    } catch {
      // SQLite already rolled back (some errors end the transaction themselves).
    }
  }

  /**
   * Runs one write transaction (a batch under the threshold, or a write outside `apply`: a task record,
   * meta) synchronously. With `checkpointElsewhere`, its COMMIT never checkpoints on this thread:
   * measured on the 2-core reference machine, 3,000 small commits took 8.8 s with SQLite's
   * auto-checkpoint (p99 45 ms, max 265 ms) and 3.5 s without (p99 13 ms), and under a mixed search and
   * ingestion load such commits were the largest stalls of the event loop. The checkpoint goes to the
   * other thread instead, at most once per `checkpointIntervalMs`; a commit that comes sooner leaves its
   * frames to the next one. Task records and meta were once written outside this, so a task's
   * `started` record could be the COMMIT that copies the WAL into the file and syncs it: ingesting 200
   * MuSiQue paragraphs with use-lite, the event loop spent 0.83 s in those writes (0.08 s through here).
   */
  function commits<T>(write: () => T): T {
    const elsewhere = options.checkpointElsewhere
    if (elsewhere === undefined) return write()
    holdAutoCheckpoint()
    try {
      return write()
    } finally {
      if (workerCheckpoint === null && Date.now() - lastHandOff >= checkpointIntervalMs)
        handOff(elsewhere)
      else framesWaiting = true
      releaseAutoCheckpoint()
    }
  }

  /**
   * A large batch in one transaction too (BEGIN IMMEDIATE ... COMMIT), but with an event-loop turn
   * every ~10 ms: the few seconds a multi-megabyte text takes to write would otherwise stop the whole
   * server. Atomicity is SQLite's: a crash before COMMIT leaves none of it.
   */
  async function applySliced(batch: WriteBatch): Promise<void> {
    db.exec('BEGIN IMMEDIATE')
    try {
      const steps = writes(batch)
      const pause = loopYielder(sliceMs)
      while (!steps.next().done) {
        const turn = pause()
        if (turn !== undefined) await turn
      }
      commitLarge()
    } catch (error) {
      rollBack()
      throw error
    }
  }

  /** Checkpoints handed to another thread and not finished yet; the WAL auto-checkpoint is off meanwhile. */
  let checkpointing = 0
  let autoCheckpoint = 1000
  /**
   * Settles when the latest checkpoint handed to another thread has ended and no follow-up is due (it
   * includes the wait of up to `checkpointIntervalMs` before the next); null when none is running.
   */
  let workerCheckpoint: Promise<void> | null = null
  /** The checkpoint running on the other thread now, without the wait for a follow-up; null if none. */
  let onThread: Promise<void> | null = null
  const checkpointIntervalMs = options.checkpointIntervalMs ?? 1000
  /** When the latest checkpoint was handed to another thread (Date.now()). */
  let lastHandOff = Number.NEGATIVE_INFINITY
  /** A commit under held auto-checkpoints left frames that no checkpoint handed off has yet seen. */
  let framesWaiting = false

  // Prepared once (`stmt`): `db.pragma()` compiles its statement on every call, ~10 us each, and every
  // commit holds and releases.
  function holdAutoCheckpoint() {
    if (checkpointing++ > 0) return
    autoCheckpoint = (stmt('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number })
      .wal_autocheckpoint
    stmt('PRAGMA wal_autocheckpoint = 0').run()
  }

  function releaseAutoCheckpoint() {
    if (--checkpointing === 0) {
      try {
        stmt(`PRAGMA wal_autocheckpoint = ${autoCheckpoint}`).run()
      } catch {
        // The database was closed meanwhile (brain deleted or adapter closed).
      }
      releaseIfWanted()
    }
  }

  /**
   * Runs a checkpoint on the other thread, auto-checkpoints on this connection off until it ends. When
   * commits came meanwhile, the next one follows, `checkpointIntervalMs` after this one started (a
   * checkpoint by another connection is ordinary SQLite WAL operation: it copies committed frames only
   * and never blocks this connection's readers or writer).
   */
  function handOff(elsewhere: () => Promise<void>) {
    holdAutoCheckpoint()
    lastHandOff = Date.now()
    framesWaiting = false
    const checkpoint: Promise<void> = elsewhere()
      .catch(() => {
        // Nothing lost: a later checkpoint (or SQLite's auto-checkpoint) copies what this one did not.
      })
      .finally(() => {
        if (onThread === checkpoint) onThread = null
      })
    onThread = checkpoint
    const running: Promise<void> = checkpoint
      .then(async () => {
        if (!framesWaiting) return
        const wait = lastHandOff + checkpointIntervalMs - Date.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref())
        if (!framesWaiting) return
        try {
          handOff(elsewhere)
        } catch {
          // The database was closed meanwhile: its last close checkpoints what is left.
        }
      })
      .finally(() => {
        if (workerCheckpoint === running) workerCheckpoint = null
        releaseAutoCheckpoint()
      })
    workerCheckpoint = running
  }

  /**
   * COMMIT of a sliced transaction. The COMMIT that pushes the WAL past the auto-checkpoint size also
   * copies the whole WAL into the database file and syncs it, synchronously: after a multi-megabyte
   * text (and its vectors) that is hundreds of megabytes and one to two seconds of a stopped server.
   * With `checkpointElsewhere`, auto-checkpoints are off from this COMMIT until the other thread has
   * checkpointed.
   */
  function commitLarge() {
    const elsewhere = options.checkpointElsewhere
    if (elsewhere === undefined) {
      db.exec('COMMIT')
      return
    }
    holdAutoCheckpoint()
    try {
      db.exec('COMMIT')
    } finally {
      handOff(elsewhere)
      releaseAutoCheckpoint()
    }
  }

  /**
   * Settles (never rejects) when the sliced transaction in progress ends; null when none is. Every
   * other call on this connection waits for it: a write would join the open transaction (a task
   * record acknowledged with 202 would then depend on its COMMIT), a read would see its uncommitted
   * rows. Calls on other brains, which have their own connections, do not wait.
   */
  let sliced: Promise<void> | null = null
  /** `store.release` was asked while the connection was busy, and nothing has used the store since. */
  let releaseWanted = false

  const store: BrainStore = {
    brainId,
    snapshotDir: options.snapshotDir ?? null,
    async apply(batch) {
      if (recordCount(batch) <= slicedAbove) return commits(() => applyTx(batch))
      const done = applySliced(batch)
      const release = () => {
        sliced = null
        releaseIfWanted()
      }
      sliced = done.then(release, release)
      return done
    },
    ...sqliteRepositories(stmt, putTask, commits),
    async stats(): Promise<BrainStats> {
      const n = (table: string) =>
        (stmt(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
      return {
        passages: n('passages'),
        entities: n('entities'),
        relationships: n('relationships'),
        observations: n('observations'),
        structured: n('structured'),
        changelog: n('changelog'),
        tasks: n('tasks'),
        vectors: n('vectors'),
        sources: (
          stmt("SELECT count(*) AS n FROM sources WHERE status = 'active'").get() as { n: number }
        ).n,
      }
    },
    async purge() {
      for (let attempt = 1; ; attempt++) {
        // Not while a worker checkpoints (TRUNCATE would wait for it, holding the event loop) or a
        // sliced transaction is open on this connection (a checkpoint cannot run inside one). Not
        // after the follow-up's wait either: it is an unref'd timer, so a library caller awaiting a
        // forget would see Node exit (code 13) with nothing else keeping the process alive.
        while (onThread !== null || sliced !== null) await (onThread ?? sliced)
        if (truncateWal()) return null
        if (attempt === PURGE_ATTEMPTS)
          return 'SQLite could not truncate the write-ahead log (the database stayed busy): deleted records may remain in its -wal file until its next checkpoint.'
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
      }
    },
  }

  /**
   * Copies the WAL into the database file and truncates it to zero bytes: the WAL keeps the page
   * images written before a delete, which `secure_delete` does not touch
   * (https://www.sqlite.org/pragma.html#pragma_wal_checkpoint). False when readers or a writer kept it
   * busy past the busy timeout. Without WAL (a custom driver in another journal mode) there is nothing
   * to truncate and SQLite reports it as done.
   */
  function truncateWal(): boolean {
    return Number(db.pragma('wal_checkpoint(TRUNCATE)', { simple: true })) === 0
  }

  // Every method, of the store and of its repositories, waits while a sliced transaction is open
  // (see `sliced`); otherwise it runs at once. Any call also means the brain is in use again: a
  // release asked for earlier no longer stands (`releaseWanted`).
  const guard = (target: Record<string, unknown>) => {
    for (const [name, member] of Object.entries(target)) {
      if (typeof member === 'function') {
        const call = member as (...args: unknown[]) => Promise<unknown>
        target[name] = (...args: unknown[]) => {
          releaseWanted = false
          return sliced === null ? call(...args) : waitThen(call, args)
        }
      } else if (typeof member === 'object' && member !== null) {
        guard(member as Record<string, unknown>)
      }
    }
  }
  guard(store as unknown as Record<string, unknown>)
  // Not guarded: it never waits. A sliced transaction keeps the connection, as does a checkpoint that
  // will restore this connection's auto-checkpoint setting when it ends; the release then happens when
  // they end (`releaseIfWanted`), unless the store is used meanwhile. Without that, a brain whose last
  // use was a commit (one handed a checkpoint to the other thread) kept its connection for good: the
  // engine asks once, when it stops holding the brain. Starting on 2,000 brains, whose task sweep
  // commits in each, held 2,000 connections (about 370 KB and four file descriptors each).
  const release = options.release
  if (release !== undefined)
    store.release = () => {
      releaseWanted = true
      releaseIfWanted()
    }
  function releaseIfWanted() {
    if (!releaseWanted || sliced !== null || checkpointing !== 0) return
    releaseWanted = false
    release?.()
  }
  async function waitThen(call: (...args: unknown[]) => Promise<unknown>, args: unknown[]) {
    while (sliced !== null) await sliced
    return call(...args)
  }
  return store
}
