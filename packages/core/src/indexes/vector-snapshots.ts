import { randomUUID } from 'node:crypto'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { BrainStore, StorageAdapter, WriteBatch } from '../contracts/storage-adapter.js'
import { VECTOR_INDEX_DEFAULTS, type VectorIndex } from './vectors/vector-index.js'
import { loadVectorIndex, saveVectorIndex, syncVectorSnapshot } from './vectors/vector-snapshot.js'
import type { Logger } from '../logger.js'
import type { VectorSpace } from './brain-indexes.js'
import {
  parseSnapshotMeta,
  SNAPSHOT_META,
  snapshotDirName,
  touchedVectorSpaces,
  type SnapshotMeta,
} from './snapshot-meta.js'

export interface VectorSnapshotOptions {
  /** Save a brain's changed vector indexes once no write has touched them for this long (default 30 s). */
  idleMs?: number
  /**
   * Least time between two background saves of one brain (default 5 min): a steady trickle of writes
   * to a large brain would otherwise rewrite its snapshot (~4 KB per 512-d vector) every `idleMs`.
   */
  minIntervalMs?: number
}

export interface VectorSnapshotsDeps extends VectorSnapshotOptions {
  /**
   * False: nothing is loaded, saved or scheduled, but writes still invalidate existing snapshots, so
   * that a later process never loads a stale one (default true).
   */
  enabled?: boolean
  storage: StorageAdapter
  logger: Logger
  /**
   * The brain's vector indexes when they are built in this process from `store` (what a save writes);
   * undefined otherwise, e.g. for indexes of a brain since deleted and created again.
   */
  vectorsOf(brainId: string, store: BrainStore): ReadonlyMap<VectorSpace, VectorIndex> | undefined
}

/**
 * Saves and loads the vector indexes of brains whose store has a `snapshotDir`, so that a restart
 * loads them instead of re-inserting every vector into HNSW (hundreds per second on 512-d vectors).
 *
 * Validity: the brain's `index.snapshots` meta names, per vector space, the snapshot that equals the
 * stored vectors. `beforeCommit` removes a space from it, durably, before any write that touches the
 * space is applied; a save writes a new snapshot directory, syncs it, and only then names it in the
 * meta, and only if no write touched the space since the save began or was still between storage and
 * the index when it began. So after a crash at any point the meta names only snapshots equal to
 * storage, and everything else is rebuilt from storage. One process per store (as the SQLite adapter
 * is): another process's writes would not pass through `beforeCommit`. A write that fails after its
 * `beforeCommit` never reaches the listener, so it keeps its spaces from being saved until the process
 * restarts (which rebuilds them): the safe side, for a rare case.
 *
 * While a save writes an index (hnswlib reads it on a libuv thread), the commit listeners of writes
 * that touch it wait, so the index does not change under the reader; searches go on.
 */
export interface VectorSnapshots {
  /**
   * The valid snapshots of the brain, loaded. Spaces missing from the result (none saved, a write
   * since, unreadable or inconsistent files) are for the caller to rebuild. Never throws.
   */
  load(store: BrainStore): Promise<Map<VectorSpace, VectorIndex>>
  /**
   * Engine `beforeCommit` hook. Throws when the invalidation cannot be recorded: the write is refused.
   * `forecast`: the batch this one replaces, seen by the hook earlier and never committed itself.
   */
  beforeCommit(brainId: string, batch: WriteBatch, forecast?: WriteBatch): Promise<void>
  /**
   * Engine commit listener: runs `apply` (the index following `batch`) once no save is reading the
   * index, then schedules a background save.
   */
  follow(
    brainId: string,
    batch: WriteBatch,
    apply: (() => void | Promise<void>) | null,
  ): Promise<void>
  /** After the brain's indexes were built: schedules a background save of spaces rebuilt from storage. */
  built(brainId: string): void
  /** Saves the brain's changed spaces now (after a save already running). */
  save(brainId: string): Promise<void>
  /** Cancels scheduled saves, then saves every changed brain whose indexes are built (shutdown). */
  close(): Promise<void>
}

interface BrainState {
  readonly brainId: string
  readonly store: BrainStore
  readonly dir: string
  /** The meta as last read or written by this process (null until read). */
  meta: SnapshotMeta | null
  /** Per space, bumped (before the write is applied) by every write that touches it. */
  readonly epoch: Map<VectorSpace, number>
  /** Writes past `beforeCommit` whose listener has not run: storage may be ahead of the index. */
  readonly pending: Map<WriteBatch, Set<VectorSpace>>
  /** Per space, the id of the valid snapshot the in-memory index equals. */
  readonly current: Map<VectorSpace, string>
  /** Spaces whose index failed to follow a write: never saved by this process. */
  readonly unsafe: Set<VectorSpace>
  /** Meta reads and writes, one at a time. */
  queue: Promise<unknown>
  /** Set while `saveVectorIndex` reads an index: it must not change meanwhile. */
  reading: Promise<void> | null
  saving: Promise<void> | null
  timer: NodeJS.Timeout | null
  lastSaveAt: number
}

export function createVectorSnapshots(deps: VectorSnapshotsDeps): VectorSnapshots {
  const { storage, logger } = deps
  const enabled = deps.enabled ?? true
  const idleMs = deps.idleMs ?? 30_000
  const minIntervalMs = deps.minIntervalMs ?? 300_000
  const states = new Map<string, BrainState>()
  /** Set while `close` saves: no background save is scheduled meanwhile. */
  let stopped = false

  /** The brain's state; a new one when the store changed (the brain was deleted and created again). */
  function stateOf(store: BrainStore, dir: string): BrainState {
    const known = states.get(store.brainId)
    if (known !== undefined && known.store === store) return known
    if (known?.timer) clearTimeout(known.timer)
    const state: BrainState = {
      brainId: store.brainId,
      store,
      dir,
      meta: null,
      epoch: new Map(),
      pending: new Map(),
      current: new Map(),
      unsafe: new Set(),
      queue: Promise.resolve(),
      reading: null,
      saving: null,
      timer: null,
      lastSaveAt: -Infinity,
    }
    states.set(store.brainId, state)
    return state
  }

  function serial<T>(state: BrainState, op: () => Promise<T>): Promise<T> {
    const run = state.queue.then(op)
    state.queue = run.catch(() => {})
    return run
  }

  async function readMeta(state: BrainState): Promise<SnapshotMeta> {
    state.meta ??= parseSnapshotMeta(await state.store.meta.get(SNAPSHOT_META))
    return state.meta
  }

  async function writeMeta(state: BrainState, meta: SnapshotMeta): Promise<void> {
    await state.store.meta.set(SNAPSHOT_META, JSON.stringify(meta))
    state.meta = meta
  }

  /** The state is still that of a live brain (not deleted, or deleted and created again). */
  async function live(state: BrainState): Promise<boolean> {
    if (states.get(state.brainId) !== state) return false
    if ((await storage.catalog.get(state.brainId)) === null) return false
    return (await storage.brain(state.brainId).catch(() => null)) === state.store
  }

  function schedule(state: BrainState): void {
    if (stopped || !enabled) return
    if (state.timer !== null) clearTimeout(state.timer)
    const wait = Math.max(idleMs, state.lastSaveAt + minIntervalMs - performance.now())
    state.timer = setTimeout(() => {
      state.timer = null
      void save(state.brainId).catch((error: unknown) =>
        logger.error({ err: error, brainId: state.brainId }, 'vector snapshot save failed'),
      )
    }, wait)
    // A pending save never keeps the process alive; shutdown saves through `close`.
    state.timer.unref()
  }

  async function saveSpace(state: BrainState, space: VectorSpace, index: VectorIndex) {
    const epoch = state.epoch.get(space) ?? 0
    const id = randomUUID()
    const dir = join(state.dir, snapshotDirName(space, id))
    const started = performance.now()
    let recorded = false
    try {
      state.reading = saveVectorIndex(index, dir, { id })
      try {
        await state.reading
      } finally {
        state.reading = null
      }
      const written = performance.now()
      await syncVectorSnapshot(dir)
      recorded = await serial(state, async () => {
        if ((state.epoch.get(space) ?? 0) !== epoch || !(await live(state))) return false
        const meta = await readMeta(state)
        await writeMeta(state, { ...meta, vectors: { ...meta.vectors, [space]: id } })
        state.current.set(space, id)
        return true
      })
      logger.info(
        {
          brainId: state.brainId,
          space,
          vectors: index.size,
          writeMs: Math.round(written - started),
          syncMs: Math.round(performance.now() - written),
          recorded,
        },
        recorded ? 'vector snapshot saved' : 'vector snapshot dropped: written to meanwhile',
      )
    } finally {
      if (!recorded) await rm(dir, { recursive: true, force: true })
    }
  }

  /** Snapshot directories the meta does not name (older snapshots, saves cut short by a crash). */
  async function removeStale(state: BrainState): Promise<void> {
    const meta = await serial(state, () => readMeta(state))
    const keep = new Set(
      Object.entries(meta.vectors).map(([space, id]) => snapshotDirName(space as VectorSpace, id)),
    )
    const entries = await readdir(state.dir).catch(() => [] as string[])
    for (const name of entries)
      if (name.startsWith('vectors-') && !keep.has(name))
        await rm(join(state.dir, name), { recursive: true, force: true })
  }

  async function saveNow(state: BrainState): Promise<void> {
    const vectors = deps.vectorsOf(state.brainId, state.store)
    if (vectors === undefined || !(await live(state))) return
    let saved = false
    for (const [space, index] of vectors) {
      if (state.current.has(space) || state.unsafe.has(space)) continue
      // A write already in storage but not yet in the index: the snapshot would miss it.
      if ([...state.pending.values()].some((spaces) => spaces.has(space))) {
        schedule(state)
        continue
      }
      await saveSpace(state, space, index)
      saved = true
    }
    if (saved) {
      state.lastSaveAt = performance.now()
      await removeStale(state)
    }
  }

  async function save(brainId: string): Promise<void> {
    if (!enabled) return
    const state = states.get(brainId)
    if (state === undefined) return
    while (state.saving !== null) await state.saving.catch(() => {})
    state.saving = saveNow(state).finally(() => {
      state.saving = null
    })
    return state.saving
  }

  return {
    async load(store) {
      const loaded = new Map<VectorSpace, VectorIndex>()
      if (!enabled || !store.snapshotDir) return loaded
      const state = stateOf(store, store.snapshotDir)
      const epochs = new Map(state.epoch)
      let meta: SnapshotMeta
      try {
        meta = await serial(state, () => readMeta(state))
      } catch (error) {
        logger.warn({ err: error, brainId: store.brainId }, 'index snapshot meta unreadable')
        return loaded
      }
      for (const [space, id] of Object.entries(meta.vectors) as [VectorSpace, string][]) {
        const started = performance.now()
        try {
          // Search-time settings are this version's, as for an index built now.
          const index = await loadVectorIndex(join(state.dir, snapshotDirName(space, id)), {
            id,
            ef: VECTOR_INDEX_DEFAULTS.ef,
            exactBelow: VECTOR_INDEX_DEFAULTS.exactBelow,
          })
          loaded.set(space, index)
          // A write that began after the meta was read is applied to this index by its listener;
          // until a save, the index is then ahead of the snapshot.
          if ((state.epoch.get(space) ?? 0) === (epochs.get(space) ?? 0))
            state.current.set(space, id)
          logger.info(
            {
              brainId: store.brainId,
              space,
              vectors: index.size,
              ms: Math.round(performance.now() - started),
            },
            'vector index loaded from snapshot',
          )
        } catch (error) {
          logger.warn(
            { err: error, brainId: store.brainId, space },
            'vector snapshot unusable; rebuilding from storage',
          )
        }
      }
      return loaded
    },

    async beforeCommit(brainId, batch, forecast) {
      // A forecast was invalidated for like a write (conservatively), but no listener will follow it.
      if (forecast !== undefined) states.get(brainId)?.pending.delete(forecast)
      const spaces = touchedVectorSpaces(batch)
      if (spaces.size === 0) return
      const store = await storage.brain(brainId)
      if (!store.snapshotDir) return
      const state = stateOf(store, store.snapshotDir)
      for (const space of spaces) {
        state.epoch.set(space, (state.epoch.get(space) ?? 0) + 1)
        state.current.delete(space)
      }
      state.pending.set(batch, spaces)
      try {
        await serial(state, async () => {
          const meta = await readMeta(state)
          if (![...spaces].some((space) => meta.vectors[space] !== undefined)) return
          const vectors = { ...meta.vectors }
          for (const space of spaces) delete vectors[space]
          await writeMeta(state, { ...meta, vectors })
        })
      } catch (error) {
        state.pending.delete(batch)
        throw error
      }
    },

    async follow(brainId, batch, apply) {
      const state = states.get(brainId)
      const spaces = state?.pending.get(batch)
      if (state === undefined || spaces === undefined) {
        await apply?.()
        return
      }
      try {
        // Re-checked after each wait: another save may have started in between. A failed save is
        // its own error (logged there); the batch is applied all the same.
        while (state.reading !== null) await state.reading.catch(() => {})
        // The batch stays pending while it is applied (with event-loop turns): no save reads its
        // spaces meanwhile.
        await apply?.()
      } catch (error) {
        // The index may hold part of the batch: it no longer equals storage, so it is never saved.
        for (const space of spaces) state.unsafe.add(space)
        throw error
      } finally {
        state.pending.delete(batch)
      }
      if (apply !== null) schedule(state)
    },

    save,

    built(brainId) {
      const state = states.get(brainId)
      if (state === undefined) return
      const vectors = deps.vectorsOf(brainId, state.store)
      if ([...(vectors?.keys() ?? [])].some((space) => !state.current.has(space))) schedule(state)
    },

    async close() {
      stopped = true
      const clearTimers = () => {
        for (const state of states.values()) {
          if (state.timer !== null) clearTimeout(state.timer)
          state.timer = null
        }
      }
      clearTimers()
      // Sequential: each save writes hundreds of megabytes for a large brain; in parallel they only
      // compete for the same disk.
      for (const state of [...states.values()]) {
        try {
          await save(state.brainId)
        } catch (error) {
          logger.error({ err: error, brainId: state.brainId }, 'vector snapshot save failed')
        }
      }
      // An engine may be started again after `stop()`: background saves resume with its writes.
      clearTimers()
      stopped = false
    },
  }
}
