/**
 * What an adapter shared by several processes gives the engine so that those processes serve the same
 * brains together (DESIGN.md section 5, "Scale-out"). Optional: an adapter one process owns (memory,
 * SQLite) leaves it out, and the engine then keeps its write lock, its task queue and its indexes to
 * itself. `docs/writing-an-adapter.md` describes what each member must guarantee.
 */
export interface Coordination {
  /** This process's name among those sharing the database (random per `open()`); leases and writes carry it. */
  readonly origin: string
  /**
   * Runs `work` holding the brain's write lock across every process sharing the database, so that one
   * brain's writes, from their reads to their commit, never interleave (entity resolution reads what the
   * previous write committed). The lock is released when `work` settles or the process dies.
   */
  withBrainLock<T>(brainId: string, work: () => Promise<T>): Promise<T>
  /** The committed writes of each brain, in commit order, for processes following them. */
  readonly writes: WriteFeed
  /** The shared task queue's leases. */
  readonly tasks: TaskLeases
  /**
   * Stores `value` under `key` unless a value is there already, and returns the stored one: several
   * processes starting at once agree on one (the generated system token's hash).
   */
  claimSetting(key: string, value: string): Promise<string>
  /**
   * Runs `work` only if no process sharing the database holds the lock named `name`, holding it until
   * `work` settles; answers `{ acquired: false }` at once otherwise, without waiting. For jobs one
   * process should do per round (the expiry sweep, docs/time.md). The lock goes with the process.
   * Optional: without it, each process runs such jobs itself.
   */
  tryExclusive?<T>(name: string, work: () => Promise<T>): Promise<ExclusiveRun<T>>
}

/** What `Coordination.tryExclusive` did: ran `work` (and what it returned), or found the lock taken. */
export type ExclusiveRun<T> = { acquired: true; value: T } | { acquired: false }

/**
 * What a committed write changed, by id: enough for a process that follows the brain to read the
 * records back from storage and update its indexes. Records the indexes do not hold (structured
 * records, the changelog, task state) are left out.
 */
export interface WriteSummary {
  passages?: string[]
  entities?: string[]
  relationships?: string[]
  observations?: string[]
  /** `[space, id]` pairs. */
  vectors?: [string, string][]
  deleteEntities?: string[]
  deleteRelationships?: string[]
  deleteVectors?: [string, string][]
  /** Forgotten passages and observations (docs/forgetting.md): the indexes drop them. */
  deletePassages?: string[]
  deleteObservations?: string[]
}

/** One committed write of a brain. */
export interface FeedEntry {
  /** The brain's write number: 1, 2, ... with no gaps, in commit order. */
  seq: number
  /** The `Coordination.origin` of the process that committed it. */
  origin: string
  summary: WriteSummary
}

/**
 * The per-brain write sequence. Every `BrainStore.apply` whose batch changes indexed records appends
 * one entry in its own transaction, numbered in commit order, and announces it to subscribers once
 * committed.
 */
/** Where a brain's feed stands. */
export interface FeedHead {
  /** The brain's last write number (0 for a brain never written). */
  seq: number
  /**
   * Changes when the brain is deleted and created again under its id, whose numbering then restarts
   * (PostgreSQL: its creation time): a follower that knew the other incarnation must start over.
   */
  incarnation: string
}

export interface WriteFeed {
  /** The brains' heads; deleted (unknown) brains are left out. */
  heads(brainIds: string[]): Promise<Map<string, FeedHead>>
  /**
   * The brain's entries after `seq`, oldest first, at most `limit`. Entries may be pruned after a
   * retention period: a follower that finds the first entry past `seq + 1` has missed writes.
   */
  since(brainId: string, seq: number, limit: number): Promise<FeedEntry[]>
  /**
   * Calls `listener` soon after any process commits a write (PostgreSQL LISTEN/NOTIFY); delivery is
   * best effort (a dropped connection loses announcements), so followers also poll `heads`.
   */
  subscribe(listener: (brainId: string, seq: number) => void): Promise<() => Promise<void>>
}

/** A task of a brain, as the shared queue names it. */
export interface TaskKey {
  brainId: string
  taskId: string
}

/**
 * Leases on the shared task queue. A task is runnable when it is `queued`, or `started` with no live
 * lease (the process running it died or gave it back); `claim` leases runnable tasks to this process
 * with `SELECT ... FOR UPDATE SKIP LOCKED`, so two processes never claim one task at once.
 */
export interface TaskLeases {
  /**
   * Leases up to `limit` runnable tasks to this process for `leaseMs`: oldest first within a brain,
   * brains in turn, none of the brains in `exclude`.
   */
  claim(limit: number, leaseMs: number, exclude: string[]): Promise<TaskKey[]>
  /** Extends this process's leases on `keys` (a heartbeat while they run). */
  renew(keys: TaskKey[], leaseMs: number): Promise<void>
  /** Gives leases back, so another process may take those tasks at once (a stop mid-task). */
  release(keys: TaskKey[]): Promise<void>
  /** Tasks waiting or running in every process: all of them, one brain's, and how many brains have some. */
  pending(brainId: string): Promise<{ total: number; brain: number; brains: number }>
  /** Calls `listener` soon after any process submits a task (best effort, as `WriteFeed.subscribe`). */
  subscribe(listener: () => void): Promise<() => Promise<void>>
}
