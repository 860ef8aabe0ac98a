import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { EngineCore } from '../engine/engine-core.js'
import { BrainIndexes } from './brain-indexes.js'
import { createVectorSnapshots, type VectorSnapshotOptions } from './vector-snapshots.js'

export interface IndexManagerOptions {
  /**
   * Vector index snapshots, for adapters whose stores have a `snapshotDir` (see `vector-snapshots.ts`):
   * loaded instead of re-inserting every vector when a brain's indexes are built, saved in the
   * background once a brain's vectors changed and it is idle, and at `stop()`. `false` neither loads
   * nor saves them (every build re-inserts), but writes still invalidate existing ones, so that a
   * later process never loads a stale snapshot. Default: on, with the defaults of the options.
   */
  snapshots?: VectorSnapshotOptions | false
}

/** The in-memory indexes of every brain an engine serves. */
export interface IndexManager {
  /** The brain's indexes, built on first use from storage (vector indexes from snapshots when valid). */
  get(brainId: string): Promise<BrainIndexes>
  /** The brain's indexes if they are built, without building them or checking the catalog. */
  peek(brainId: string): BrainIndexes | undefined
  /**
   * Saves the brain's vector indexes that changed since their last snapshot, now (background saves
   * and `stop()` do this on their own). No-op when snapshots are off or the adapter keeps none.
   */
  saveSnapshots(brainId: string): Promise<void>
}

/**
 * Keeps one {@link BrainIndexes} per brain (DESIGN.md section 1a, "Index manager"): built lazily,
 * rebuilt when a brain is deleted and created again, and the only thing that turns committed batches
 * into index updates (a commit listener on the engine core). Vector snapshots are invalidated before
 * a write reaches storage and saved after tasks have drained at stop.
 */
export function createIndexManager(
  core: EngineCore,
  options: IndexManagerOptions = {},
): IndexManager {
  /** Per brain: its indexes, and the store they were built from (to tell a brain created again). */
  type Loaded = {
    generation: string
    indexes: Promise<BrainIndexes>
    built?: BrainIndexes
    store?: BrainStore
  }
  const loaded = new Map<string, Loaded>()
  const snapshots = createVectorSnapshots({
    ...(options.snapshots || {}),
    enabled: options.snapshots !== false,
    storage: core.storage,
    logger: core.logger,
    vectorsOf(brainId, store) {
      const entry = loaded.get(brainId)
      return entry?.store === store ? entry.built?.vectors : undefined
    },
  })

  async function build(brainId: string, next: Loaded): Promise<BrainIndexes> {
    const store = await core.store(brainId)
    next.store = store
    const started = performance.now()
    const fromSnapshots = await snapshots.load(store)
    const loadMs = performance.now() - started
    const built = await BrainIndexes.build(store, fromSnapshots)
    core.logger.info(
      {
        brainId,
        passages: built.passages.size,
        vectors: Object.fromEntries(
          [...built.vectors].map(([space, index]) => [space, index.size]),
        ),
        vectorOrigin: Object.fromEntries(built.vectorOrigin),
        snapshotLoadMs: Math.round(loadMs),
        lexicalMs: Math.round(built.buildMs.lexical),
        vectorRebuildMs: Math.round(built.buildMs.vectors),
        ms: Math.round(performance.now() - started),
      },
      'brain indexes built',
    )
    return built
  }

  async function get(brainId: string): Promise<BrainIndexes> {
    const record = await core.brains.require(brainId)
    const entry = loaded.get(brainId)
    // A brain deleted and created again gets a new token hash: its indexes are rebuilt from storage.
    const generation = `${record.createdAt}|${record.tokenHash}`
    if (entry !== undefined && entry.generation === generation) return entry.indexes
    const next = { generation } as Loaded
    next.indexes = build(brainId, next)
    loaded.set(brainId, next)
    try {
      next.built = await next.indexes
      snapshots.built(brainId)
      return next.built
    } catch (error) {
      loaded.delete(brainId)
      throw error
    }
  }

  // Before a write reaches storage, the snapshots of the vector spaces it touches stop being valid.
  core.beforeCommit((brainId, batch, forecast?: WriteBatch) =>
    snapshots.beforeCommit(brainId, batch, forecast),
  )
  core.onCommit(async (brainId, batch) => {
    const entry = loaded.get(brainId)
    // A failed build is dropped by `get` and rebuilt from storage on next use: nothing to follow.
    const built = entry === undefined ? null : await entry.indexes.catch(() => null)
    await snapshots.follow(brainId, batch, built === null ? null : () => built.apply(batch))
  })
  // Several processes on one database: other processes' writes reach the commit listener above, read
  // back from storage, for the brains whose indexes this process holds; a brain whose indexes missed
  // writes is dropped and rebuilt on next use.
  core.followWrites({
    interested: (brainId) => loaded.has(brainId),
    stale: (brainId) => void loaded.delete(brainId),
  })
  // After tasks have drained and before storage closes: save what changed.
  core.onStop(() => snapshots.close())

  return {
    get,
    peek: (brainId) => loaded.get(brainId)?.built,
    saveSnapshots: (brainId) => snapshots.save(brainId),
  }
}
