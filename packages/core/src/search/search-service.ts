import type { Embedder } from '../contracts/embedder.js'
import type { SearchContext, SearchPlugin, VectorReader } from '../contracts/search-plugins.js'
import type { EngineCore } from '../engine/engine-core.js'
import type { IndexManager } from '../indexes/index-manager.js'
import { PluginRegistry } from '../registry/plugin-registry.js'
import { builtinPlugins } from '../builtins/builtin-plugins.js'
import {
  GRAPH_WALK_DEFAULTS,
  graphWalk,
  type GraphWalkSettings,
} from '../builtins/stages/graph-walk.js'
import { personalization } from '../builtins/stages/personalization.js'
import type { SearchResponse } from '../model/search.js'
import { queryEmbedder, recordedEmbedder, vectorReader } from './dense-access.js'
import { fusionCalibrationFor } from './fusion-calibration.js'
import { runSearch } from './run-search.js'
import {
  searchCandidates,
  type CandidatesRequest,
  type CandidatesResult,
} from './search-candidates.js'
import { createSearchContext } from './search-context.js'
import { sliceBrain } from '../time/time-slice.js'
import { timeFilter } from '../time/validity.js'
import { resolveSearchRequest } from './resolve-search-request.js'
import type { SearchInput } from './search-request.js'
import { DEFAULT_FUSION, resolveGraphChannels, type GraphChannels } from './graph-channels.js'
import { createStageTimer } from './stage-timer.js'

/** Dense readers a graph operation already holds (so the query is embedded once per operation). */
export interface DenseReaders {
  vectors: VectorReader | null
  embed: ((text: string) => Promise<Float32Array>) | null
}

export interface SearchServiceOptions {
  /** Extra channel, fusion and stage plugins, registered after the built-ins (names must not clash). */
  plugins?: SearchPlugin[]
  /**
   * Embeds queries for dense retrieval (`passages` and `entities` channels) and `rerank=plugin:dense`:
   * the same model ingestion embeds with. Without it, search is lexical and graph only. Not closed here.
   */
  embedder?: Embedder | null
  /** Channels and fusion of the graph operations' candidates (default: `DEFAULT_GRAPH_CHANNELS`). */
  graphChannels?: Partial<GraphChannels>
  /** Settings of the graph walk (`expand=neighbors` and the context pack); default `GRAPH_WALK_DEFAULTS`. */
  graphWalk?: Partial<GraphWalkSettings>
  /**
   * Fusion of a `/retrieve/search` request that names none (default `cc`, with the brain's calibrated
   * weights; docs/search-fusion.md). Graph operations default to it too unless `graphChannels.fusion`.
   */
  defaultFusion?: string
}

export interface SearchService {
  readonly registry: PluginRegistry
  /**
   * Runs one search; `signal` defaults to a 30 s deadline from the call. Omitted fields take the REST
   * defaults and a field of the wrong type is a VALIDATION_ERROR (`resolveSearchRequest`).
   */
  search(brainId: string, request: SearchInput, signal?: AbortSignal): Promise<SearchResponse>
  /**
   * Retrieve -> fuse only, for graph operations (`/retrieve/`, hops and context-pack seeds): fused
   * candidates and the lists behind them. `readers` are the operation's own dense readers (default:
   * the service's, as `search` gets them).
   */
  candidates(
    brainId: string,
    request: CandidatesRequest,
    readers?: DenseReaders,
  ): Promise<CandidatesResult>
  /** What `/retrieve/`, hops seeds and context-pack seeds ask `candidates` for. */
  readonly graphChannels: GraphChannels
  /** The graph walk settings of `expand=neighbors`, which the context pack uses too. */
  readonly graphWalk: GraphWalkSettings
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
  const registry = new PluginRegistry()
  for (const plugin of [...builtinPlugins(), ...(options.plugins ?? [])]) registry.register(plugin)
  registry.freeze()
  const walkSettings: GraphWalkSettings = { ...GRAPH_WALK_DEFAULTS, ...options.graphWalk }
  const stages = { expansion: graphWalk(walkSettings), personalization: personalization() }

  const embedder = options.embedder ?? null
  const untimed = { time: <T>(_stage: string, fn: () => Promise<T>) => fn() }
  const embed = (brainId: string) =>
    embedder === null
      ? null
      : queryEmbedder(
          embedder,
          brainId,
          () => core.store(brainId),
          untimed,
          AbortSignal.timeout(30_000),
        )
  const defaultFusion = options.defaultFusion ?? DEFAULT_FUSION
  registry.resolveRequest('fusion', defaultFusion)
  const graphChannels = resolveGraphChannels(registry, {
    fusion: defaultFusion,
    ...options.graphChannels,
  })
  /**
   * The brain's fusion weights: by the embedder its vectors were built with when the search reads
   * them (`brain` memoises the meta read the query embedder's check shares), else a lexical brain's.
   */
  const calibrationOf = async (brain: (() => ReturnType<typeof recordedEmbedder>) | null) =>
    fusionCalibrationFor(
      brain === null ? null : ((await brain())?.name ?? embedder?.name ?? null),
      embedder,
    )
  const once = <T>(fn: () => Promise<T>) => {
    let memo: Promise<T> | undefined
    return () => (memo ??= fn())
  }
  // `indexes` has just checked that the brain exists; `core.store` would look it up in the catalog a
  // second time. If the brain was deleted in between, `core.store` gives the proper BRAIN_NOT_FOUND.
  const storeOf = (brainId: string) => core.storage.brain(brainId).catch(() => core.store(brainId))

  /**
   * The caller's signal, or a 30 s deadline from now created on first read: a lexical search never
   * reads it, and a timeout signal per request is a timer armed and cleared for nothing.
   */
  function deadline(given?: AbortSignal): () => AbortSignal {
    const started = performance.now()
    let signal = given
    return () =>
      (signal ??= AbortSignal.timeout(
        Math.max(0, Math.round(30_000 - (performance.now() - started))),
      ))
  }

  return {
    registry,
    async vectors(brainId) {
      return embedder === null ? null : vectorReader(brainId, await indexes(brainId))
    },
    embed,
    graphChannels,
    graphWalk: walkSettings,
    async search(brainId, input, given) {
      const request = resolveSearchRequest(input)
      const timer = createStageTimer()
      const signal = deadline(given)
      const whole = await timer.time('search.indexes', () => indexes(brainId))
      const { store, indexes: brainIndexes } = sliceBrain(
        await storeOf(brainId),
        whole,
        timeFilter(request.asOf, request.knownAt),
        Date.now(),
        // A search answers now by default: events whose fact has ended are not hits (docs/time.md).
        'hide',
      )
      // Dense retrieval needs the query embedder and stored vectors; a lexical-only search (the demo)
      // skips it, and a brain without vectors does not pay for embedding the query.
      const dense =
        embedder !== null && request.lexicalOnly !== true && brainIndexes.vectors.size > 0
      const brain = dense ? once(() => recordedEmbedder(store)) : null
      const ctx = createSearchContext({
        brainId,
        store,
        indexes: brainIndexes,
        vectors: dense ? vectorReader(brainId, brainIndexes) : null,
        embed: dense
          ? queryEmbedder(embedder, brainId, async () => store, timer, signal(), brain!)
          : null,
        timer,
        signal,
      })
      const calibration = await calibrationOf(brain)
      return runSearch(request, { registry, ctx, timer, stages, defaultFusion, calibration })
    },
    async candidates(brainId, request, readers) {
      const timer = createStageTimer()
      const { store, indexes: brainIndexes } = sliceBrain(
        await storeOf(brainId),
        await indexes(brainId),
        request.time ?? {},
      )
      const own: DenseReaders =
        readers ??
        (embedder !== null && brainIndexes.vectors.size > 0
          ? { vectors: vectorReader(brainId, brainIndexes), embed: embed(brainId) }
          : { vectors: null, embed: null })
      const calibration = await calibrationOf(
        own.vectors !== null ? () => recordedEmbedder(store) : null,
      )
      const ctx: SearchContext = createSearchContext({
        brainId,
        store,
        indexes: brainIndexes,
        ...own,
        timer,
        signal: deadline(),
      })
      return searchCandidates(request, { registry, ctx, timer, calibration })
    },
  }
}
