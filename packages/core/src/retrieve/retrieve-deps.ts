import type { GraphWalkSettings } from '../builtins/stages/graph-walk.js'
import type { CandidateSource, VectorReader } from '../contracts/search-plugins.js'
import type { BrainStore } from '../contracts/storage-adapter.js'
import type { Engram } from '../engine/engine-types.js'
import type { BrainIndexes } from '../indexes/brain-indexes.js'
import type { DenseReaders, SearchService } from '../search/search-service.js'
import { sliceBrain } from '../time/time-slice.js'
import { isNow, type TimeFilter } from '../time/validity.js'

/**
 * What a graph retrieval operation (`/retrieve/*` outside search) reads. Narrow on purpose (STYLE item 4):
 * operations see one brain's store, its lexical indexes and, when an embedder is configured, its vectors.
 */
export interface RetrieveDeps {
  /** The selected brain. */
  brainId: string
  /** That brain's records. */
  store: BrainStore
  /** That brain's BM25 indexes (passages, entities, events, observations). */
  indexes: BrainIndexes
  /** Embeds a text in the space of the `entities` and `passages` vectors; null without an embedder. */
  embed: ((text: string) => Promise<Float32Array>) | null
  /** Stored vectors of the brain; null without an embedder. Operations fall back to graph/lexical signals. */
  vectors: VectorReader | null
  /**
   * Fused candidates from the search pipeline (retrieve -> fuse), best first: `passages` for
   * `/retrieve/` and context-pack passage seeds, `seeds` for hop seeds, through the channels and fusion
   * the engine configures (`graphChannels`), so registered plugins reach graph operations.
   */
  candidates: CandidateSource
  /** Clock for recency scores (tests pin it). Default: `new Date()`. */
  now?: () => Date
  /** Graph walk settings of the context pack (default `GRAPH_WALK_DEFAULTS`). */
  graphWalk?: GraphWalkSettings
  /** The brain's records at every time (the context pack lists superseded facts from it); default `store`. */
  allTime?: BrainStore
  /** The time the operation sees the brain at (`as_of`, `known_at`; docs/time.md); absent: now. */
  time?: TimeFilter
}

export type { CandidateSource }

export interface RetrieveDepsOptions {
  /** Overrides the vector reader (otherwise the search service's). */
  vectors?: VectorReader | null
  /** Overrides the embedder (otherwise the search service's). */
  embed?: ((text: string) => Promise<Float32Array>) | null
  now?: () => Date
  /** `as_of` / `known_at`: the store and indexes the operation reads are sliced to it (docs/time.md). */
  time?: TimeFilter
}

/**
 * Builds the dependencies of one request from the engine. Vectors and the embedder come from
 * `options`, else from the engine's search service, as `/retrieve/search` gets them (null without an
 * embedder).
 */
export async function createRetrieveDeps(
  engram: Engram,
  brainId: string,
  options: RetrieveDepsOptions = {},
): Promise<RetrieveDeps> {
  const [whole, wholeIndexes] = await Promise.all([
    engram.store(brainId),
    engram.indexes.get(brainId),
  ])
  const time = options.time ?? {}
  const { store, indexes } = sliceBrain(whole, wholeIndexes, time)
  const readers = await serviceReaders(engram.search, brainId, wholeIndexes)
  const vectors = options.vectors !== undefined ? options.vectors : readers.vectors
  const embed = options.embed !== undefined ? options.embed : readers.embed
  const { graphChannels } = engram.search
  const deps: RetrieveDeps = {
    brainId,
    store,
    indexes,
    vectors,
    embed,
    graphWalk: engram.search.graphWalk,
    candidates: async (set, query, depth) =>
      (
        await engram.search.candidates(
          brainId,
          { query, channels: graphChannels[set], fusion: graphChannels.fusion, depth, time },
          { vectors, embed },
        )
      ).candidates,
  }
  if (options.now !== undefined) deps.now = options.now
  if (!isNow(time)) Object.assign(deps, { time, allTime: whole })
  return deps
}

/**
 * The search service's dense readers, as `/retrieve/search` gets them: none without an embedder, and
 * none for a brain without vectors (which then does not pay for embedding the text).
 */
async function serviceReaders(
  search: SearchService,
  brainId: string,
  indexes: BrainIndexes,
): Promise<DenseReaders> {
  const embed = search.embed(brainId)
  if (embed === null || indexes.vectors.size === 0) return { vectors: null, embed: null }
  return { vectors: await search.vectors(brainId), embed }
}
