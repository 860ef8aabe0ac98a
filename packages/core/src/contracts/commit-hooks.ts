import type { WriteBatch } from './storage-adapter.js'

/** Builds a batch from reads made under the brain's write lock (see `Engram.commit`). */
export type BatchBuilder = () => Promise<WriteBatch>

/**
 * Called after a batch is committed, so in-memory indexes can follow (retrieval plugs in here). Runs
 * under the brain's write lock (batches arrive in commit order): it must not commit to that brain.
 */
export type CommitListener = (brainId: string, batch: WriteBatch) => void | Promise<void>

/**
 * Called before a batch is applied, under the brain's write lock; may add to it (e.g. vectors for new
 * entities). Throwing aborts the write. Slow work here holds up every other write of the brain, so
 * `/model/*` writes call their hooks twice: first on a forecast, the batch built before taking the lock
 * (with `forecast` undefined), then on the batch built under the lock with that forecast, as the hooks
 * left it (its vectors), to reuse what still applies.
 */
export type BeforeCommitHook = (
  brainId: string,
  batch: WriteBatch,
  forecast?: WriteBatch,
) => Promise<void>
