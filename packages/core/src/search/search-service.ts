import type { Embedder } from '../contracts/embedder.js'
import type {
  GraphReader,
  SearchContext,
  SearchPlugin,
  VectorReader,
} from '../contracts/search-plugins.js'
import type { EngineCore } from '../engine/engine-core.js'
import type { IndexManager } from '../indexes/index-manager.js'
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
import { queryEmbedder, vectorReader } from './dense-access.js'
import { preferenceScores } from './preference-profile.js'
import { runSearch } from './run-search.js'
import type { SearchRequest } from './search-request.js'
import { createStageTimer } from './stage-timer.js'

export interface SearchServiceOptions {
  /** Extra channel, fusion and stage plugins, registered after the built-ins (names must not clash). */
  plugins?: SearchPlugin[]
  /**
   * Embeds queries for dense retrieval (`passages` and `entities` channels) and `rerank=plugin:dense`:
   * the same model ingestion embeds with. Without it, search is lexical and graph only. Not closed here.
   */
  embedder?: Embedder | null
}

export interface SearchService {
  readonly registry: PluginRegistry
  /** Runs one search; `signal` defaults to a 30 s deadline from the call. */
  search(brainId: string, request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse>
  /** Dense reads over the brain's vectors; null without an embedder. */
  vectors(brainId: string): Promise<VectorReader | null>
  /** A query embedder for one operation on the brain (memoised per call); null without an embedder. */
  embed(brainId: string): ((text: string) => Promise<Float32Array>) | null
}

/**
 * Search over an engine's indexes (DESIGN.md section 3): the plugin registry, frozen at creation, and
 * the pipeline each request runs through. Built by the composition root (`createEngine`).
 */
export function createSearchService(
  core: EngineCore,
  manager: IndexManager,
  options: SearchServiceOptions = {},
): SearchService {
  const indexes = (brainId: string) => manager.get(brainId)
  const info = (brainId: string, uuid: string) => manager.peek(brainId)?.entityInfo.get(uuid)
  const registry = new PluginRegistry()
    .register(passagesChannel())
    .register(entitiesChannel((brainId, uuid) => info(brainId, uuid)?.labels))
    .register(eventsChannel((brainId, uuid) => info(brainId, uuid)?.happenedAt))
    .register(
      communitiesChannel(async (brainId) =>
        (await indexes(brainId)).communities.index(await core.store(brainId)),
      ),
    )
    .register(denseRerank())
    .register(rrf())
    .register(convexCombination())
    .register(noFusion())
  for (const plugin of options.plugins ?? []) registry.register(plugin)
  registry.freeze()

  const embedder = options.embedder ?? null
  const untimed = { time: <T>(_stage: string, fn: () => Promise<T>) => fn() }

  return {
    registry,
    async vectors(brainId) {
      return embedder === null ? null : vectorReader(brainId, await indexes(brainId))
    },
    embed(brainId) {
      return embedder === null
        ? null
        : queryEmbedder(
            embedder,
            brainId,
            () => core.store(brainId),
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
      // `indexes` just checked that the brain exists; `core.store` would look it up in the catalog
      // a second time. If the brain was deleted in between, `core.store` gives the proper
      // BRAIN_NOT_FOUND.
      const store = await core.storage.brain(brainId).catch(() => core.store(brainId))
      // Dense retrieval needs the query embedder and stored vectors; a lexical-only search (the demo)
      // skips it, and a brain without vectors does not pay for embedding the query.
      const dense =
        embedder !== null && request.lexicalOnly !== true && brainIndexes.vectors.size > 0
      const graph: GraphReader = {
        entities: (uuids) => store.entities.get(uuids),
        passages: (ids) => store.passages.get(ids),
        relationshipsOf: (uuid) => store.relationships.of(uuid),
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
