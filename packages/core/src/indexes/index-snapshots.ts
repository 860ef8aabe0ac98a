import { randomUUID } from 'node:crypto'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { loopYielder } from '../loop-yielder.js'
import { isChangedDuringSave } from './changed-during-save.js'
import type { Pause } from './index-component.js'
import type { WriteSummary } from '../contracts/coordination.js'
import type { BrainStore, StorageAdapter, WriteBatch } from '../contracts/storage-adapter.js'
import { VECTOR_INDEX_DEFAULTS, type VectorIndex } from './vectors/vector-index.js'
import { loadVectorIndex, saveVectorIndex, syncVectorSnapshot } from './vectors/vector-snapshot.js'
import type { Logger } from '../logger.js'
import type { VectorSpace } from './brain-indexes.js'
import type { Bm25Settings } from './bm25/bm25-index.js'
import { LexicalIndexes } from './lexical-indexes.js'
import { loadLexicalSnapshot, saveLexicalSnapshot } from './lexical-snapshot.js'
import type { GraphIndex } from './graph/graph-index.js'
import type { LazyGraphIndex } from './graph/lazy-graph-index.js'
import { loadGraphSnapshot, saveGraphSnapshot } from './graph/graph-snapshot.js'
import {
  feedTail,
  incarnationOf,
  namedParts,
  readFeedManifest,
  removeFeedManifest,
  writeFeedManifest,
} from './feed-snapshot-manifest.js'
import {
  deletesIndexedRecords,
  parseSnapshotMeta,
  SNAPSHOT_META,
  snapshotDirName,
  snapshotIdOf,
  touchedSnapshotParts,
  withSnapshotId,
  type SnapshotMeta,
  type SnapshotPart,
} from './snapshot-meta.js'

/**
 * When index snapshots are saved (`EngineOptions.snapshots`); they hold vector, BM25 and graph
 * indexes.
 */
export interface VectorSnapshotOptions {
  /** Save a brain's changed indexes once no write has touched them for this long (default 30 s). */
  idleMs?: number
  /**
   * Least time between two background saves of one brain (default 5 min): a steady trickle of writes
   * to a large brain would otherwise rewrite its snapshot (~4 KB per 512-d vector) every `idleMs`.
   */
  minIntervalMs?: number
  /**
   * The pause between two slices of a lexical or graph save's encode (default `loopYielder()`: an
   * event-loop turn every ~10 ms). A test passes one that writes to the brain in between.
   */
  savePause?: (part: 'lexical' | 'graph') => Pause
}

/** The indexes of a brain a snapshot is saved from. */
export interface SnapshotSources {
  readonly vectors: ReadonlyMap<VectorSpace, VectorIndex>
  readonly lexical: LexicalIndexes
  /** The graph: saved once built (by a request that needed it) or loaded. */
  readonly graph?: LazyGraphIndex
}

/** What `load` restored: vector indexes per space, and the lexical indexes (null: rebuild). */
export interface LoadedSnapshots {
  readonly vectors: Map<VectorSpace, VectorIndex>
  readonly lexical: LexicalIndexes | null
  /** The graph index (null or absent: built from storage on first use). */
  readonly graph?: GraphIndex | null
  /**
   * Stores several processes share: the write-feed entries committed after the loaded snapshots were
   * read, oldest first, for the caller to apply (read back with `batchFromSummary`, through `follow`)
   * once the indexes are built and before they serve. Absent when nothing was loaded.
   */
  readonly tail?: WriteSummary[]
}

export interface IndexSnapshotsDeps extends VectorSnapshotOptions {
  /**
   * False: nothing is loaded, saved or scheduled, but writes still invalidate existing snapshots, so
   * that a later process never loads a stale one (default true).
   */
  enabled?: boolean
  storage: StorageAdapter
  logger: Logger
  /**
   * The brain's indexes when they are built in this process from `store` (what a save writes);
   * undefined otherwise, e.g. for indexes of a brain since deleted and created again.
   */
  indexesOf(brainId: string, store: BrainStore): SnapshotSources | undefined
  /** The engine's BM25 defaults, which restored lexical indexes start with (`LexicalIndexes`). */
  bm25?: Bm25Settings
  /**
   * Adapters with `coordination`: the last write-feed entry the brain's indexes reflect (the write
   * follower's position), undefined when the brain is not followed. Labels what a save reads.
   */
  writeSeq?(brainId: string): number | undefined
}

/**
 * Saves and loads the indexes of brains whose store has a `snapshotDir`, so that a restart loads them
 * instead of re-inserting every vector into HNSW (hundreds per second on 512-d vectors) and analysing
 * every passage again for BM25 (15 s for 100,000 passages). Each part is saved and invalidated on its
 * own: a vector space (`passages`, `entities`), `lexical` (the four BM25 indexes, the passage
 * sequence and entity attributes of `LexicalIndexes`), and `graph` (`GraphIndex`, which a restart
 * otherwise rebuilds from every entity, relationship and observation on first use). The graph is
 * saved only once a request has built it (or it was loaded): no save builds it, since a shutdown would
 * then build every loaded brain's graph. The lexical and graph parts are decoded with an event-loop
 * turn every ~10 ms (`sliced-work.ts`), so a brain loading beside others does not stop their requests
 * for the 0.2-0.4 s a MovieLens-size graph takes; each index object is created only after the last
 * slice, so no request sees a half-decoded one.
 *
 * Validity: the brain's `index.snapshots` meta names, per part, the snapshot that equals the stored
 * records. `beforeCommit` removes a part from it, durably, before any write that touches the part is
 * applied; a save writes a new snapshot directory, syncs it, and only then names it in the meta, and
 * only if no write touched the part since the save began or was still between storage and the index
 * when it began. So after a crash at any point the meta names only snapshots equal to
 * storage, and everything else is rebuilt from storage. One process per store (as the SQLite adapter
 * is): another process's writes would not pass through `beforeCommit`. A write that fails after its
 * `beforeCommit` never reaches the listener, so it keeps its parts from being saved until the process
 * restarts (which rebuilds them): the safe side, for a rare case.
 *
 * Forgetting: a write that deletes passages, entities, relationships or observations also removes
 * the snapshot files of the parts it touches at once (the lexical snapshot holds ids and terms, the
 * graph's names, ids and the start of descriptions and observations), rather than at the next save.
 *
 * While a save reads a vector index (hnswlib on a libuv thread), the commit listeners of writes that
 * touch it wait, so the index does not change under the reader; searches go on. The lexical indexes
 * and the graph are encoded in slices with event-loop turns between them (`saveLexicalSnapshot`,
 * `saveGraphSnapshot`): a write that touches them during a turn bumps the part's epoch first, and the
 * save stops at its next slice and writes nothing (`changed-during-save.ts`); a later save writes
 * the part again.
 *
 * Loading: a vector index is handed over once its flat vectors and ids are read; hnswlib reads its
 * graph meanwhile, and the index searches exactly until then (`VectorIndex.graphReady`), so a large
 * brain is searchable before its graph is in. A graph hnswlib then refuses leaves that index exact for
 * the life of the process: the snapshot is taken out of the meta (so the next start rebuilds the
 * graph from storage) and the part is never saved by this process.
 *
 * Stores several processes share (the adapter has `coordination`: PostgreSQL): the brain's meta is
 * shared but each process's snapshot directory is its own, so validity comes from the write feed
 * instead (`feed-snapshot-manifest.ts`). A local manifest names the parts, each labelled with the
 * write follower's position when the part was read (`writeSeq`), and the brain's incarnation. `load`
 * takes them when the incarnation matches and the feed still holds every entry after the lowest
 * label, and returns those entries (`tail`) for the caller to apply; anything else rebuilds. Writes
 * need no invalidation (the feed records them), except forgets: as above, the parts they touch leave
 * the manifest and the disk at once, for this process's writes and for those it follows. Batches of
 * other processes reach `follow` without `beforeCommit`: they count as writes there.
 */
export interface IndexSnapshots {
  /**
   * The valid snapshots of the brain, loaded. Parts missing from the result (none saved, a write
   * since, unreadable or inconsistent files) are for the caller to rebuild. Never throws.
   */
  load(store: BrainStore): Promise<LoadedSnapshots>
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
  /** After the brain's indexes were built: schedules a background save of parts rebuilt from storage. */
  built(brainId: string): void
  /** Saves the brain's changed parts now (after a save already running). */
  save(brainId: string): Promise<void>
  /** Cancels scheduled saves, then saves every changed brain whose indexes are built (shutdown). */
  close(): Promise<void>
}

/** One part's index, as a save reads it. */
type PartIndex =
  | { kind: 'vectors'; index: VectorIndex }
  | { kind: 'lexical'; index: LexicalIndexes }
  | { kind: 'graph'; index: LazyGraphIndex }

/** The parts of `sources` a save may write, each with its index. */
function partsOf(sources: SnapshotSources): Map<SnapshotPart, PartIndex> {
  const parts = new Map<SnapshotPart, PartIndex>()
  for (const [space, index] of sources.vectors) parts.set(space, { kind: 'vectors', index })
  parts.set('lexical', { kind: 'lexical', index: sources.lexical })
  if (sources.graph !== undefined) parts.set('graph', { kind: 'graph', index: sources.graph })
  return parts
}

interface BrainState {
  readonly brainId: string
  readonly store: BrainStore
  readonly dir: string
  /** The meta as last read or written by this process (null until read). */
  meta: SnapshotMeta | null
  /**
   * Feed-validated snapshots (a store with `coordination`): the brain's incarnation the indexes were
   * loaded for, and each part's label (the feed seq it reflects); null until `load`.
   */
  feed: { readonly incarnation: string; seqs: Map<SnapshotPart, number> } | null
  /** Per part, bumped (before the write is applied) by every write that touches it. */
  readonly epoch: Map<SnapshotPart, number>
  /** Writes past `beforeCommit` whose listener has not run: storage may be ahead of the index. */
  readonly pending: Map<WriteBatch, Set<SnapshotPart>>
  /** Per part, the id of the valid snapshot the in-memory index equals. */
  readonly current: Map<SnapshotPart, string>
  /** Parts whose index failed to follow a write: never saved by this process. */
  readonly unsafe: Set<SnapshotPart>
  /** Meta reads and writes, one at a time. */
  queue: Promise<unknown>
  /** Set while a save reads an index: it must not change meanwhile. */
  reading: Promise<void> | null
  saving: Promise<void> | null
  timer: NodeJS.Timeout | null
  lastSaveAt: number
  /** HNSW graphs still read from the snapshots `load` handed over (their files must stay meanwhile). */
  graphLoads: Promise<unknown>[]
}

export function createIndexSnapshots(deps: IndexSnapshotsDeps): IndexSnapshots {
  const { storage, logger } = deps
  const enabled = deps.enabled ?? true
  const idleMs = deps.idleMs ?? 30_000
  const minIntervalMs = deps.minIntervalMs ?? 300_000
  const states = new Map<string, BrainState>()
  /** Set while `close` saves: no background save is scheduled meanwhile. */
  let stopped = false
  /** Several processes share the stores: snapshots are validated by the write feed. */
  const feed = storage.coordination?.writes

  /**
   * The brain's state; a new one when the store changed (the brain was deleted and created again)
   * or when `fresh` (a feed-validated load: saves of the indexes loaded before are not recorded).
   */
  function stateOf(store: BrainStore, dir: string, fresh = false): BrainState {
    const known = states.get(store.brainId)
    if (known !== undefined && known.store === store && !fresh) return known
    if (known?.timer) clearTimeout(known.timer)
    const state: BrainState = {
      brainId: store.brainId,
      store,
      dir,
      meta: null,
      feed: null,
      epoch: new Map(),
      pending: new Map(),
      current: new Map(),
      unsafe: new Set(),
      queue: Promise.resolve(),
      reading: null,
      saving: null,
      timer: null,
      lastSaveAt: -Infinity,
      graphLoads: [],
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
    // Feed-validated: what `load` validated (none before it).
    if (feed !== undefined) return state.meta ?? parseSnapshotMeta(null)
    state.meta ??= parseSnapshotMeta(await state.store.meta.get(SNAPSHOT_META))
    return state.meta
  }

  /** `seqs`: feed-validated snapshots' labels (committed with the manifest). */
  async function writeMeta(
    state: BrainState,
    meta: SnapshotMeta,
    seqs = state.feed?.seqs,
  ): Promise<void> {
    if (feed === undefined) {
      await state.store.meta.set(SNAPSHOT_META, JSON.stringify(meta))
      state.meta = meta
      return
    }
    if (state.feed === null || seqs === undefined) throw new Error('index snapshots: not loaded')
    const named = namedParts(meta)
    const labels = new Map([...seqs].filter(([part]) => named.includes(part)))
    await writeFeedManifest(state.dir, {
      format: 1,
      incarnation: state.feed.incarnation,
      seqs: Object.fromEntries(labels),
      meta,
    })
    state.meta = meta
    state.feed.seqs = labels
  }

  /**
   * Feed-validated snapshots: takes the parts out of the manifest and their files off the disk (a
   * forget). A brain not loaded here has no validated manifest: all of its snapshots go.
   */
  async function dropParts(state: BrainState, parts: ReadonlySet<SnapshotPart>): Promise<void> {
    await serial(state, async () => {
      if (state.feed === null) return removeFeedManifest(state.dir)
      let next = await readMeta(state)
      for (const part of parts) next = withSnapshotId(next, part, undefined)
      await writeMeta(state, next)
    })
    // Taken out of the manifest at once; the files once hnswlib has read the graphs it is reading
    // (a forget in the tail a load applies would otherwise leave its vector index exact for good).
    await Promise.all(state.graphLoads)
    await removeStale(state)
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

  const savePause = deps.savePause ?? (() => loopYielder())

  /**
   * Writes the part's snapshot files: `reading` is set while the index must not change. The lexical
   * indexes and the graph are encoded in slices with event-loop turns in between (`loopYielder`), and
   * a write may be applied during a turn: `changed` (the part's epoch moved, which `beforeCommit` and
   * feed batches bump before the write reaches the index) then stops the save with a
   * `ChangedDuringSaveError`, which `savePart` takes as a dropped save. The graph also stops on its
   * own write count (`saveGraphSnapshot`), whoever wrote to it.
   */
  async function writePart(
    state: BrainState,
    part: PartIndex,
    dir: string,
    id: string,
    changed: () => boolean,
  ) {
    if (part.kind === 'lexical') {
      await saveLexicalSnapshot(part.index, dir, { pause: savePause('lexical'), changed })
      return { count: part.index.passages.size, sync: () => Promise.resolve() }
    }
    if (part.kind === 'graph') {
      // Built (`saveNow`).
      const graph = part.index.built!
      await saveGraphSnapshot(graph, dir, savePause('graph'), changed)
      return { count: graph.nodeCount, sync: () => Promise.resolve() }
    }
    state.reading = saveVectorIndex(part.index, dir, { id })
    try {
      await state.reading
    } finally {
      state.reading = null
    }
    return { count: part.index.size, sync: () => syncVectorSnapshot(dir) }
  }

  async function savePart(state: BrainState, name: SnapshotPart, part: PartIndex) {
    const epoch = state.epoch.get(name) ?? 0
    const changed = () => (state.epoch.get(name) ?? 0) !== epoch
    // Feed-validated: the feed seq the index reflects as it is read (no batch is being applied).
    const label = feed === undefined ? undefined : deps.writeSeq?.(state.brainId)
    if (feed !== undefined && (label === undefined || state.feed === null)) return
    const id = randomUUID()
    const dir = join(state.dir, snapshotDirName(name, id))
    const started = performance.now()
    const what = part.kind === 'vectors' ? 'vector' : part.kind
    let recorded = false
    try {
      const files = await writePart(state, part, dir, id, changed).catch((error: unknown) => {
        // Written to between two slices of the encode: nothing written, nothing to record.
        if (isChangedDuringSave(error)) return null
        throw error
      })
      if (files === null) {
        logger.info(
          {
            brainId: state.brainId,
            part: name,
            recorded,
            ms: Math.round(performance.now() - started),
          },
          `${what} snapshot dropped: written to meanwhile`,
        )
        return
      }
      const { count, sync } = files
      const written = performance.now()
      await sync()
      recorded = await serial(state, async () => {
        if (changed() || !(await live(state))) return false
        const seqs = label === undefined ? undefined : new Map(state.feed?.seqs).set(name, label)
        await writeMeta(state, withSnapshotId(await readMeta(state), name, id), seqs)
        state.current.set(name, id)
        return true
      })
      logger.info(
        {
          brainId: state.brainId,
          part: name,
          [{ lexical: 'passages', vectors: 'vectors', graph: 'nodes' }[part.kind]]: count,
          writeMs: Math.round(written - started),
          syncMs: Math.round(performance.now() - written),
          recorded,
        },
        recorded ? `${what} snapshot saved` : `${what} snapshot dropped: written to meanwhile`,
      )
    } finally {
      if (!recorded) await rm(dir, { recursive: true, force: true })
    }
  }

  /**
   * Snapshot directories the meta does not name (older snapshots, saves cut short by a crash, parts
   * a write invalidated).
   */
  async function removeStale(state: BrainState): Promise<void> {
    // A state replaced meanwhile: its meta no longer says what the directory must keep.
    if (states.get(state.brainId) !== state) return
    const meta = await serial(state, () => readMeta(state))
    const keep = new Set<string>()
    for (const part of ['passages', 'entities', 'lexical', 'graph'] as const) {
      const id = snapshotIdOf(meta, part)
      if (id !== undefined) keep.add(snapshotDirName(part, id))
    }
    const entries = await readdir(state.dir).catch(() => [] as string[])
    for (const name of entries)
      if (/^(vectors|lexical|graph)-/.test(name) && !keep.has(name))
        await rm(join(state.dir, name), { recursive: true, force: true })
  }

  /** A loaded vector index whose graph hnswlib refused: forgotten, so the next start rebuilds it. */
  async function graphFailed(state: BrainState, part: SnapshotPart, id: string, error: unknown) {
    state.unsafe.add(part)
    state.current.delete(part)
    logger.warn(
      { err: error, brainId: state.brainId, part },
      'vector snapshot graph unusable; exact search until a restart rebuilds it from storage',
    )
    await serial(state, async () => {
      const meta = await readMeta(state)
      if (snapshotIdOf(meta, part) === id)
        await writeMeta(state, withSnapshotId(meta, part, undefined))
    })
  }

  /**
   * Feed-validated: the manifest's parts and the feed entries after their lowest label, when the
   * manifest is of this incarnation of the brain and the feed still holds all of those entries (and
   * no more than `MAX_FEED_TAIL`); no parts otherwise. Sets the state's incarnation and labels.
   */
  async function validFeedSnapshots(
    state: BrainState,
  ): Promise<{ meta: SnapshotMeta; tail?: WriteSummary[] }> {
    const none = { meta: parseSnapshotMeta(null) }
    const { brainId } = state
    const record = await storage.catalog.get(brainId)
    if (record === null || feed === undefined) return none
    const incarnation = incarnationOf(record)
    // The follower's position labels saves. Read before the head, it cannot be past it unless it
    // counts writes of the brain before it was deleted and created again (the follower notices at
    // its next poll, and the brain is rebuilt): nothing is then loaded, nor saved from this state.
    const followed = deps.writeSeq?.(brainId)
    const head = (await feed.heads([brainId])).get(brainId)?.seq
    if (head === undefined || followed === undefined || followed > head) return none
    state.feed = { incarnation, seqs: new Map() }
    state.meta = none.meta
    const manifest = await readFeedManifest(state.dir)
    const parts = manifest === null ? [] : namedParts(manifest.meta)
    if (manifest === null || manifest.incarnation !== incarnation || parts.length === 0) {
      if (manifest !== null) logger.info({ brainId }, 'index snapshots of another incarnation')
      return none
    }
    const from = Math.min(...parts.map((part) => manifest.seqs[part]!))
    const tail = await feedTail(feed, brainId, from, head)
    // The brain may have been deleted and created again while its feed was read.
    const again = await storage.catalog.get(brainId)
    if (tail === null || again === null || incarnationOf(again) !== incarnation) {
      logger.info(
        { brainId, from, head },
        'index snapshots stale (write feed pruned since, or too far behind); rebuilding',
      )
      return none
    }
    state.meta = manifest.meta
    state.feed.seqs = new Map(parts.map((part) => [part, manifest.seqs[part]!]))
    return { meta: manifest.meta, tail }
  }

  /**
   * The graph is built and not empty (an empty one costs nothing to build: no file for it). A graph no
   * request needed is not built for a save: a shutdown would otherwise build every loaded brain's graph
   * (seconds each for a large brain); it is saved once a request has built it.
   */
  function graphBuilt(graph: LazyGraphIndex): boolean {
    return (graph.built?.nodeCount ?? 0) > 0
  }

  async function saveNow(state: BrainState): Promise<void> {
    const sources = deps.indexesOf(state.brainId, state.store)
    if (sources === undefined || !(await live(state))) return
    let saved = false
    for (const [name, part] of partsOf(sources)) {
      if (state.current.has(name) || state.unsafe.has(name)) continue
      if (part.kind === 'graph' && !graphBuilt(part.index)) continue
      // A write already in storage but not yet in the index: the snapshot would miss it.
      if ([...state.pending.values()].some((parts) => parts.has(name))) {
        schedule(state)
        continue
      }
      await savePart(state, name, part)
      saved = true
    }
    if (saved) {
      state.lastSaveAt = performance.now()
      await removeStale(state)
    }
    if (feed !== undefined) await relabel(state)
  }

  /**
   * Feed-validated: parts whose index still equals their snapshot (no write touched them since) are
   * as good at the write follower's position now, so they are labelled with it: the tail a load
   * replays then starts at the last save, not at the oldest part's (a graph no write touched).
   */
  async function relabel(state: BrainState): Promise<void> {
    await serial(state, async () => {
      const meta = await readMeta(state)
      if (state.feed === null || !(await live(state))) return
      const label = deps.writeSeq?.(state.brainId)
      if (label === undefined) return
      const seqs = new Map(state.feed.seqs)
      let changed = false
      for (const part of namedParts(meta)) {
        if (state.current.get(part) !== snapshotIdOf(meta, part) || state.unsafe.has(part)) continue
        if ((seqs.get(part) ?? Infinity) >= label) continue
        seqs.set(part, label)
        changed = true
      }
      if (changed) await writeMeta(state, meta, seqs)
    })
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
      const loaded: LoadedSnapshots = { vectors: new Map(), lexical: null }
      if (!enabled || !store.snapshotDir) return loaded
      const state =
        feed === undefined
          ? stateOf(store, store.snapshotDir)
          : stateOf(store, store.snapshotDir, true)
      const epochs = new Map(state.epoch)
      let meta: SnapshotMeta
      let tail: WriteSummary[] | undefined
      try {
        if (feed === undefined) meta = await serial(state, () => readMeta(state))
        else ({ meta, tail } = await serial(state, () => validFeedSnapshots(state)))
      } catch (error) {
        logger.warn({ err: error, brainId: store.brainId }, 'index snapshot meta unreadable')
        return { vectors: new Map(), lexical: null }
      }
      /** Loads one part; a write that began after the meta was read leaves the index ahead of it. */
      const restore = async <T>(
        part: SnapshotPart,
        id: string,
        read: (dir: string) => Promise<T>,
        size: (value: T) => number,
      ): Promise<T | null> => {
        const started = performance.now()
        try {
          const value = await read(join(state.dir, snapshotDirName(part, id)))
          if ((state.epoch.get(part) ?? 0) === (epochs.get(part) ?? 0)) state.current.set(part, id)
          logger.info(
            {
              brainId: store.brainId,
              part,
              size: size(value),
              ms: Math.round(performance.now() - started),
            },
            `${part === 'lexical' || part === 'graph' ? part : 'vector'} index loaded from snapshot`,
          )
          return value
        } catch (error) {
          logger.warn(
            { err: error, brainId: store.brainId, part },
            'index snapshot unusable; rebuilding from storage',
          )
          return null
        }
      }
      // Every part at once: their reads and hnswlib's run on libuv's threads, side by side.
      const vectors = Object.entries(meta.vectors).map(async ([space, id]) => {
        const part = space as VectorSpace
        const started = performance.now()
        // Search-time settings are this version's, as for an index built now.
        const index = await restore(
          part,
          id,
          (dir) =>
            loadVectorIndex(dir, {
              id,
              ef: VECTOR_INDEX_DEFAULTS.ef,
              exactBelow: VECTOR_INDEX_DEFAULTS.exactBelow,
              graphInBackground: true,
            }),
          (i) => i.size,
        )
        if (index === null) return
        loaded.vectors.set(part, index)
        if (feed !== undefined) state.graphLoads.push(index.graphReady.catch(() => {}))
        index.graphReady.then(
          () =>
            logger.info(
              { brainId: store.brainId, part, ms: Math.round(performance.now() - started) },
              'vector graph loaded from snapshot',
            ),
          (error: unknown) =>
            graphFailed(state, part, id, error).catch((err: unknown) =>
              logger.error({ err, brainId: store.brainId, part }, 'vector snapshot not forgotten'),
            ),
        )
      })
      const lexicalId = snapshotIdOf(meta, 'lexical')
      const lexical =
        lexicalId === undefined
          ? null
          : restore(
              'lexical',
              lexicalId,
              async (dir) => {
                // A turn of the event loop every ~10 ms while the snapshot is decoded and restored.
                const pause = loopYielder()
                return LexicalIndexes.restore(
                  deps.bm25 ?? {},
                  await loadLexicalSnapshot(dir, pause),
                  pause,
                )
              },
              (indexes) => indexes.passages.size,
            )
      const graphId = snapshotIdOf(meta, 'graph')
      const graph =
        graphId === undefined
          ? null
          : restore(
              'graph',
              graphId,
              // Decoded with turns of the event loop every ~10 ms (`loadGraphSnapshot`).
              (dir) => loadGraphSnapshot(dir),
              (g) => g.nodeCount,
            )
      await Promise.all(vectors)
      return {
        vectors: loaded.vectors,
        lexical: await lexical,
        graph: await graph,
        ...(tail === undefined ? {} : { tail }),
      }
    },

    async beforeCommit(brainId, batch, forecast) {
      // A forecast was invalidated for like a write (conservatively), but no listener will follow it.
      if (forecast !== undefined) states.get(brainId)?.pending.delete(forecast)
      const parts = touchedSnapshotParts(batch)
      if (parts.size === 0) return
      const store = await storage.brain(brainId)
      if (!store.snapshotDir) return
      const state = stateOf(store, store.snapshotDir)
      for (const part of parts) {
        state.epoch.set(part, (state.epoch.get(part) ?? 0) + 1)
        state.current.delete(part)
      }
      state.pending.set(batch, parts)
      try {
        if (feed !== undefined) {
          // The write feed records the write: only a forget changes the snapshots now.
          if (deletesIndexedRecords(batch)) await dropParts(state, parts)
          return
        }
        await serial(state, async () => {
          const meta = await readMeta(state)
          if (![...parts].some((part) => snapshotIdOf(meta, part) !== undefined)) return
          let next = meta
          for (const part of parts) next = withSnapshotId(next, part, undefined)
          await writeMeta(state, next)
        })
        // The lexical snapshot holds ids and terms: a forget takes it off the disk now.
        if (deletesIndexedRecords(batch)) await removeStale(state)
      } catch (error) {
        state.pending.delete(batch)
        throw error
      }
    },

    async follow(brainId, batch, apply) {
      const state = states.get(brainId)
      let parts = state?.pending.get(batch)
      // Feed-validated: a batch of another process, or one `load`'s tail replays, without
      // `beforeCommit`, changes the indexes as a write of this process does.
      if (state !== undefined && parts === undefined && state.feed !== null && apply !== null) {
        parts = touchedSnapshotParts(batch)
        for (const part of parts) {
          state.epoch.set(part, (state.epoch.get(part) ?? 0) + 1)
          state.current.delete(part)
        }
        state.pending.set(batch, parts)
        if (deletesIndexedRecords(batch))
          await dropParts(state, parts).catch((error: unknown) =>
            logger.error({ err: error, brainId }, 'forgotten records left in index snapshots'),
          )
      }
      if (state === undefined || parts === undefined) {
        await apply?.()
        return
      }
      try {
        // Re-checked after each wait: another save may have started in between. A failed save is
        // its own error (logged there); the batch is applied all the same.
        while (state.reading !== null) await state.reading.catch(() => {})
        // The batch stays pending while it is applied (with event-loop turns): no save reads its
        // parts meanwhile.
        await apply?.()
      } catch (error) {
        // The index may hold part of the batch: it no longer equals storage, so it is never saved.
        for (const part of parts) state.unsafe.add(part)
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
      const sources = deps.indexesOf(brainId, state.store)
      if (sources === undefined) return
      // A graph not built yet is saved once it is (or at shutdown), not for its own sake now.
      const unsaved = [...partsOf(sources)].some(
        ([name, part]) =>
          !state.current.has(name) && (part.kind !== 'graph' || part.index.built !== null),
      )
      if (unsaved) schedule(state)
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
