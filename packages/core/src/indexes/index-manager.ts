import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { EngineCore } from '../engine/engine-core.js'
import { EngramError } from '../errors.js'
import { loopYielder } from '../loop-yielder.js'
import type { Bm25Settings } from './bm25/bm25-index.js'
import { BrainIndexes } from './brain-indexes.js'
import { feedTailBatches } from './feed-tail-batches.js'
import { createIndexBudget, type IndexBudgetStats } from './index-budget.js'
import { createIndexSnapshots, type VectorSnapshotOptions } from './index-snapshots.js'

export interface IndexManagerOptions {
  /**
   * Index snapshots (vector and lexical), for adapters whose stores have a `snapshotDir` (see
   * `index-snapshots.ts`): loaded instead of re-inserting every vector and re-analysing every passage
   * when a brain's indexes are built, saved in the background once a brain's indexes changed and it
   * is idle, and at `stop()`. `false` neither loads
   * nor saves them (every build re-inserts), but writes still invalidate existing ones, so that a
   * later process never loads a stale snapshot. Default: on, with the defaults of the options.
   */
  snapshots?: VectorSnapshotOptions | false
  /**
   * Bytes the brains' index estimates (`BrainIndexes.estimatedBytes()`) may add up to: beyond it the
   * least recently requested brains' indexes are evicted (their changed vector snapshots saved first)
   * and rebuilt, from snapshots where valid, on their next request. The brain requested last is never
   * evicted, so one larger than the whole budget is still served, alone (a warning is logged once).
   * Default: unlimited (every brain's indexes stay once built).
   */
  memoryBudgetBytes?: number
  /** BM25 settings of brains without an override of their own (see `LexicalIndexes`). */
  bm25?: Bm25Settings
}

/** What the index manager holds: see `IndexBudgetStats`. */
export type IndexManagerStats = IndexBudgetStats

/** The in-memory indexes of every brain an engine serves. */
export interface IndexManager {
  /** The brain's indexes, built on first use from storage (vector indexes from snapshots when valid). */
  get(brainId: string): Promise<BrainIndexes>
  /** The brain's indexes if they are built, without building them or checking the catalog. */
  peek(brainId: string): BrainIndexes | undefined
  /** The brain's indexes if they are built or being built, without starting a build. */
  loading(brainId: string): Promise<BrainIndexes> | undefined
  /**
   * Saves the brain's vector indexes that changed since their last snapshot, now (background saves
   * and `stop()` do this on their own). No-op when snapshots are off or the adapter keeps none.
   */
  saveSnapshots(brainId: string): Promise<void>
  /**
   * Resolves once no eviction is running (one started meanwhile included): evictions run in the
   * background after the request that went over the budget, saving snapshots first. For tests and
   * benchmarks that check what stays loaded.
   */
  settled(): Promise<void>
  /** Brains loaded, their estimated bytes, the budget and evictions so far (for logs). */
  stats(): IndexManagerStats
}

/**
 * How long a brain whose catalogue record `get` read is trusted to exist, unchanged, without reading
 * it again (ms): the record was most of the catalogue's cost per search (a primary-key read, ~40 us
 * of a ~1 ms request under load). The server's authentication trusts a brain as long
 * (`known-brains.ts`); a brain deleted in this process is forgotten at once (`onBrainDeleted`), one
 * deleted or re-created through another process sharing the database is seen within this time.
 */
const CONFIRMED_MS = 1000

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
    brainId: string
    generation: string
    indexes: Promise<BrainIndexes>
    built?: BrainIndexes
    store?: BrainStore
    /** Until when (`performance.now()`) the brain's catalogue record is trusted unread (`get`). */
    confirmedUntil?: number
  }
  const loaded = new Map<string, Loaded>()
  /** The entry is still the brain's loaded one (not evicted, replaced or deleted since). */
  const current = (entry: Loaded) => loaded.get(entry.brainId) === entry
  const snapshots = createIndexSnapshots({
    ...(options.snapshots || {}),
    enabled: options.snapshots !== false,
    storage: core.storage,
    logger: core.logger,
    ...(options.bm25 === undefined ? {} : { bm25: options.bm25 }),
    writeSeq: (brainId) => core.writeSeq(brainId),
    indexesOf(brainId, store) {
      const entry = loaded.get(brainId)
      const built = entry?.store === store ? entry.built : undefined
      return built && { vectors: built.vectors, lexical: built.lexical, graph: built.graph }
    },
  })

  const budget = createIndexBudget<Loaded>({
    ...(options.memoryBudgetBytes === undefined ? {} : { budgetBytes: options.memoryBudgetBytes }),
    logger: core.logger,
    brainIdOf: (entry) => entry.brainId,
    save: (entry) => snapshots.save(entry.brainId),
    drop(entry) {
      if (current(entry)) loaded.delete(entry.brainId)
      // The brain went cold: its store may free what it caches (SQLite closes the connection).
      entry.store?.release?.()
    },
  })
  /** Counts the entry's indexes as they are now (O(components)); may evict other brains. */
  const measure = (entry: Loaded) => {
    if (entry.built !== undefined && current(entry))
      budget.measure(entry, entry.built.estimatedBytes())
  }
  const forget = (entry: Loaded) => {
    if (current(entry)) loaded.delete(entry.brainId)
    budget.forget(entry)
  }

  async function build(brainId: string, next: Loaded): Promise<BrainIndexes> {
    const store = await core.store(brainId)
    next.store = store
    const started = performance.now()
    const fromSnapshots = await snapshots.load(store)
    const loadMs = performance.now() - started
    const built = await BrainIndexes.build(store, fromSnapshots, options.bm25)
    // Snapshots validated by the write feed: the writes committed since they were read, applied
    // before the indexes serve (the write follower goes on from where it was, which may repeat some:
    // upserts make that harmless). Each entry's HNSW inserts take milliseconds: the event loop gets a
    // turn every ~10 ms between them (1,000 entries of 5 passages held it for 6.2 s in one go).
    const pause = loopYielder()
    for await (const batch of feedTailBatches(store, fromSnapshots.tail ?? [])) {
      await snapshots.follow(brainId, batch, () => built.apply(batch))
      await pause()
    }
    core.logger.info(
      {
        brainId,
        passages: built.passages.size,
        vectors: Object.fromEntries(
          [...built.vectors].map(([space, index]) => [space, index.size]),
        ),
        vectorOrigin: Object.fromEntries(built.vectorOrigin),
        lexicalOrigin: built.lexical.restored ? 'snapshot' : 'storage',
        graphOrigin: built.graph.restored ? 'snapshot' : 'storage, on first use',
        ...(fromSnapshots.tail === undefined ? {} : { feedReplayed: fromSnapshots.tail.length }),
        snapshotLoadMs: Math.round(loadMs),
        lexicalMs: Math.round(built.buildMs.lexical),
        vectorRebuildMs: Math.round(built.buildMs.vectors),
        ms: Math.round(performance.now() - started),
      },
      'brain indexes built',
    )
    return built
  }

  /** Marks the entry used, and re-measures it (lazy parts grow). */
  const touch = (entry: Loaded) => {
    budget.use(entry)
    measure(entry)
    return entry
  }

  /** The brain's loaded entry of this generation, marked used. */
  function reuse(brainId: string, generation: string): Loaded | undefined {
    const entry = loaded.get(brainId)
    if (entry === undefined || entry.generation !== generation) return undefined
    return touch(entry)
  }

  async function get(brainId: string): Promise<BrainIndexes> {
    const known = loaded.get(brainId)
    if (known?.built !== undefined && (known.confirmedUntil ?? 0) > performance.now()) {
      touch(known)
      return known.built
    }
    const record = await core.brains.require(brainId).catch((error: unknown) => {
      const stale = loaded.get(brainId)
      if (stale !== undefined && error instanceof EngramError && error.code === 'BRAIN_NOT_FOUND')
        forget(stale)
      throw error
    })
    // A brain deleted and created again (through another process: this one forgets a brain it deletes)
    // has another creation time: its indexes are rebuilt from storage. A token rotation keeps them.
    const generation = record.createdAt
    const entry = reuse(brainId, generation)
    if (entry !== undefined) {
      entry.confirmedUntil = performance.now() + CONFIRMED_MS
      return entry.indexes
    }
    // A cold brain: evictions under way finish first, so builds cannot outrun the memory they free.
    await budget.settled()
    const raced = reuse(brainId, generation)
    if (raced !== undefined) return raced.indexes
    const previous = loaded.get(brainId)
    if (previous !== undefined) forget(previous)
    const next = { brainId, generation } as Loaded
    next.indexes = build(brainId, next)
    loaded.set(brainId, next)
    budget.use(next)
    try {
      next.built = await next.indexes
      next.confirmedUntil = performance.now() + CONFIRMED_MS
      snapshots.built(brainId)
      measure(next)
      return next.built
    } catch (error) {
      forget(next)
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
    if (entry === undefined || built === null) return snapshots.follow(brainId, batch, null)
    // Evicted (or deleted) before the batch could be applied: storage has it, and the next `get`
    // builds from storage, so the orphaned indexes are left alone.
    await snapshots.follow(brainId, batch, () => (current(entry) ? built.apply(batch) : undefined))
    measure(entry)
  })
  core.onBrainDeleted((brainId) => {
    const entry = loaded.get(brainId)
    if (entry !== undefined) forget(entry)
  })
  // After tasks have drained and before storage closes: evictions end, then save what changed.
  core.onStop(async () => {
    await budget.settled()
    await snapshots.close()
  })
  // Several processes on one database: other processes' writes reach the commit listener above, read
  // back from storage, for the brains whose indexes this process holds; a brain whose indexes missed
  // writes is dropped and rebuilt on next use.
  core.followWrites({
    interested: (brainId) => loaded.has(brainId),
    stale(brainId) {
      const entry = loaded.get(brainId)
      if (entry !== undefined) forget(entry)
    },
  })

  return {
    get,
    peek: (brainId) => loaded.get(brainId)?.built,
    loading: (brainId) => loaded.get(brainId)?.indexes,
    saveSnapshots: (brainId) => snapshots.save(brainId),
    settled: () => budget.settled(),
    stats: budget.stats,
  }
}
