import type { Embedder } from '../contracts/embedder.js'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type {
  GraphReader,
  SearchContext,
  SearchPlugin,
  VectorReader,
} from '../contracts/search-plugins.js'
import type { Engram } from '../engine/engine-types.js'
import { PluginRegistry } from '../registry/plugin-registry.js'
import { convexCombination } from '../builtins/fusions/convex-combination.js'
import { noFusion } from '../builtins/fusions/no-fusion.js'
import { rrf } from '../builtins/fusions/reciprocal-rank.js'
import { passagesChannel } from '../builtins/channels/passages-channel.js'
import { entitiesChannel } from '../builtins/channels/entities-channel.js'
import { eventsChannel } from '../builtins/channels/events-channel.js'
import { communitiesChannel } from '../builtins/channels/communities-channel.js'
import { denseRerank } from '../builtins/stages/dense-rerank.js'
import type { SearchResponse } from '../model/search.js'
import { BrainIndexes } from './brain-indexes.js'
import { queryEmbedder, vectorReader } from './dense-access.js'
import { preferenceScores } from './preference-profile.js'
import { runSearch } from './run-search.js'
import type { SearchRequest } from './search-request.js'
import { createStageTimer } from './stage-timer.js'
import { createVectorSnapshots, type VectorSnapshotOptions } from './vector-snapshots.js'

export interface SearchServiceOptions {
  /** Extra channel, fusion and stage plugins, registered after the built-ins (names must not clash). */
  plugins?: SearchPlugin[]
  /**
   * Embeds queries for dense retrieval (`passages` and `entities` channels) and `rerank=plugin:dense`:
   * the same model ingestion embeds with. Without it, search is lexical and graph only. Not closed here.
   */
  embedder?: Embedder | null
  /**
   * Vector index snapshots, for adapters whose stores have a `snapshotDir` (see `vector-snapshots.ts`):
   * loaded instead of re-inserting every vector when a brain's indexes are built, saved in the
   * background once a brain's vectors changed and it is idle, and at `engram.stop()`. `false` neither
   * loads nor saves them (every build re-inserts), but writes still invalidate existing ones, so that
   * a later process never loads a stale snapshot. Default: on, with the defaults of the options.
   */
  snapshots?: VectorSnapshotOptions | false
}

export interface SearchService {
  readonly registry: PluginRegistry
  /** Runs one search; `signal` defaults to a 30 s deadline from the call. */
  search(brainId: string, request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse>
  /** The brain's indexes, built on first use from storage. */
  indexes(brainId: string): Promise<BrainIndexes>
  /** Dense reads over the brain's vectors; null without an embedder. */
  vectors(brainId: string): Promise<VectorReader | null>
  /** A query embedder for one operation on the brain (memoised per call); null without an embedder. */
  embed(brainId: string): ((text: string) => Promise<Float32Array>) | null
  /**
   * Saves the brain's vector indexes that changed since their last snapshot, now (background saves
   * and `engram.stop()` do this on their own). No-op when snapshots are off or the adapter keeps none.
   */
  saveSnapshots(brainId: string): Promise<void>
}

/**
 * Search over an engine: per-brain in-memory indexes (built lazily, vector indexes loaded from
 * snapshots when valid ones exist, kept current by commit listeners, rebuilt when a brain is deleted
 * and created again) and the plugin registry, frozen at creation.
 */
export function createSearchService(
  engram: Engram,
  options: SearchServiceOptions = {},
): SearchService {
  /** Per brain: its indexes, and the store they were built from (to tell a brain created again). */
  type Loaded = {
    createdAt: string
    indexes: Promise<BrainIndexes>
    built?: BrainIndexes
    store?: BrainStore
  }
  const loaded = new Map<string, Loaded>()
  const info = (brainId: string, uuid: string) => loaded.get(brainId)?.built?.entityInfo.get(uuid)
  const snapshots = createVectorSnapshots({
    ...(options.snapshots || {}),
    enabled: options.snapshots !== false,
    storage: engram.storage,
    logger: engram.logger,
    vectorsOf(brainId, store) {
      const entry = loaded.get(brainId)
      return entry?.store === store ? entry.built?.vectors : undefined
    },
  })

  const registry = new PluginRegistry()
    .register(passagesChannel())
    .register(entitiesChannel((brainId, uuid) => info(brainId, uuid)?.labels))
    .register(eventsChannel((brainId, uuid) => info(brainId, uuid)?.happenedAt))
    .register(
      communitiesChannel(async (brainId) =>
        (await indexes(brainId)).communities.index(await engram.store(brainId)),
      ),
    )
    .register(denseRerank())
    .register(rrf())
    .register(convexCombination())
    .register(noFusion())
  for (const plugin of options.plugins ?? []) registry.register(plugin)
  registry.freeze()

  async function indexes(brainId: string): Promise<BrainIndexes> {
    const record = await engram.brains.require(brainId)
    const entry = loaded.get(brainId)
    // A brain deleted and created again gets a new token hash: its indexes are rebuilt from storage.
    const generation = `${record.createdAt}|${record.tokenHash}`
    if (entry !== undefined && entry.createdAt === generation) return entry.indexes
    const next: Loaded = {
      createdAt: generation,
      indexes: engram.store(brainId).then(async (store) => {
        next.store = store
        const started = performance.now()
        const fromSnapshots = await snapshots.load(store)
        const loadMs = performance.now() - started
        const built = await BrainIndexes.build(store, fromSnapshots)
        engram.logger.info(
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
      }),
    }
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
  engram.beforeCommit((brainId, batch, forecast?: WriteBatch) =>
    snapshots.beforeCommit(brainId, batch, forecast),
  )
  engram.onCommit(async (brainId, batch) => {
    const entry = loaded.get(brainId)
    // A failed build is dropped by `indexes` and rebuilt from storage on next use: nothing to follow.
    const built = entry === undefined ? null : await entry.indexes.catch(() => null)
    await snapshots.follow(brainId, batch, built === null ? null : () => built.apply(batch))
  })
  // After tasks have drained and before storage closes: save what changed.
  engram.onStop(() => snapshots.close())

  const embedder = options.embedder ?? null
  const untimed = { time: <T>(_stage: string, fn: () => Promise<T>) => fn() }

  return {
    registry,
    indexes,
    async vectors(brainId) {
      return embedder === null ? null : vectorReader(brainId, await indexes(brainId))
    },
    saveSnapshots: (brainId) => snapshots.save(brainId),
    embed(brainId) {
      return embedder === null
        ? null
        : queryEmbedder(
            embedder,
            brainId,
            () => engram.store(brainId),
            untimed,
            AbortSignal.timeout(30_000),
          )
    },
    async search(brainId, request, given) {
      const timer = createStageTimer()
      // Without a caller's signal, the search gets a 30 s deadline, created on first read: a lexical
      // search never reads it, and a timeout signal per request is a timer armed and cleared for nothing.
      const started = performance.now()
      let deadline = given
      const signal = () =>
        (deadline ??= AbortSignal.timeout(
          Math.max(0, Math.round(30_000 - (performance.now() - started))),
        ))
      const brainIndexes = await timer.time('search.indexes', () => indexes(brainId))
      // `indexes` just checked that the brain exists; `engram.store` would look it up in the catalog
      // a second time. If the brain was deleted in between, `engram.store` gives the proper
      // BRAIN_NOT_FOUND.
      const store = await engram.storage.brain(brainId).catch(() => engram.store(brainId))
      // Dense retrieval needs the query embedder and stored vectors; a lexical-only search (the demo)
      // skips it, and a brain without vectors does not pay for embedding the query.
      const dense =
        embedder !== null && request.lexicalOnly !== true && brainIndexes.vectors.size > 0
      const graph: GraphReader = {
        entities: (uuids) => store.getEntities(uuids),
        passages: (ids) => store.getPassages(ids),
        relationshipsOf: (uuid) => store.relationshipsOf(uuid),
      }
      const ctx: SearchContext = {
        brainId,
        text: {
          search: (index, query, k, filter) => brainIndexes[index].search(query, k, filter),
        },
        vectors: dense ? vectorReader(brainId, brainIndexes) : null,
        graph,
        embed: dense ? queryEmbedder(embedder, brainId, async () => store, timer, signal()) : null,
        timer,
        get signal() {
          return signal()
        },
      }
      return runSearch(request, {
        registry,
        store,
        ctx,
        timer,
        preferences: (target, uuids) => preferenceScores(store, graph, target, uuids),
      })
    },
  }
}
