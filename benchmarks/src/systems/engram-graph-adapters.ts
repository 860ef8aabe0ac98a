import type { Embedder } from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import { harnessEmbedderMissing } from '../vectors/bench-vectors.js'
import { createEngramContextPackSystem } from './engram-context-pack-system.js'
import { createEngramGraphSearchSystem } from './engram-graph-search-system.js'
import type { SystemResolution, SystemUnderTest } from './system-under-test.js'

type Adapter = (config: BenchConfig) => Promise<SystemResolution>
type Create = (config: BenchConfig, embedder: Embedder | null) => Promise<SystemUnderTest>

/**
 * A condition over a brain built by the ingestion pipeline. With `engine.embedder` it embeds through the
 * run's embedder (use-lite behind the harness's on-disk cache, shared with every other vector condition);
 * without one it is lexical only, and a `dense` channel without an embedder cannot run.
 */
function ingested(create: Create): Adapter {
  return async (config) => {
    const embedder = config.engine.embedder ?? null
    if (embedder === null) {
      if (config.engine.channels.includes('dense'))
        return { ready: false, missing: "channel 'dense' without engine.embedder" }
      return { ready: true, create: () => create(config, null) }
    }
    const missing = harnessEmbedderMissing(embedder)
    if (missing !== null) return { ready: false, missing }
    return {
      ready: true,
      usesVectors: true,
      create: ({ vectors }) => create(config, vectors.embedder()),
    }
  }
}

/**
 * Conditions that need the knowledge graph, so the corpus goes through the ingestion pipeline (keyed as
 * `engramConditionKey` keys them): the graph channels with RRF, hybrid search with neighbour expansion, and
 * the context pack (whose own seeds read passages BM25 + dense, entities and events).
 */
export const GRAPH_ADAPTERS: Readonly<Record<string, Adapter>> = {
  'dense+entities+events+passages/rrf': ingested(createEngramGraphSearchSystem),
  'dense+entities+events+passages/cc': ingested(createEngramGraphSearchSystem),
  'dense+entities+events+passages': ingested(createEngramGraphSearchSystem),
  'dense+entities+passages/rrf/neighbour-expansion': ingested(createEngramGraphSearchSystem),
  'dense+passages/cc/neighbour-expansion': ingested(createEngramGraphSearchSystem),
  'dense+passages/neighbour-expansion': ingested(createEngramGraphSearchSystem),
  'dense+entities+passages/cc/neighbour-expansion': ingested(createEngramGraphSearchSystem),
  'dense+entities+events+passages/rrf/context-pack': ingested(createEngramContextPackSystem),
  // What a request naming no options gets, over a brain the ingestion pipeline built (`ingestion-pipeline`
  // only says how the corpus goes in; `engine-default` leaves expand and rerank to the engine).
  'dense+passages/ingestion-pipeline>engine-default': ingested(createEngramGraphSearchSystem),
  'passages/ingestion-pipeline>engine-default': ingested(createEngramGraphSearchSystem),
}
