import { Bm25Index } from '@engram/core'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import { PEERS, resolvePeer } from '../peers/peer-registry.js'
import { openEngineBrain } from '../systems/engine-brain.js'
import type { SystemResolution, SystemUnderTest } from '../systems/system-under-test.js'
import { fnv1a, syntheticEmbedder, syntheticUnitVector } from './synthetic-vectors.js'

/** The Engram sides of the scale curve, each labelled with what it drives. */
export const ENGRAM_SCALE_SYSTEMS = ['engram-bm25-index', 'engram-search', 'engram-hybrid'] as const

/** Largest size the hybrid system runs at unless named explicitly (HNSW inserts 512-d vectors at ~700/s here). */
export const HYBRID_DEFAULT_MAX = 100_000

/** `Bm25Index` alone: analysis + postings + top-k, no engine, no storage. */
async function bm25IndexSystem(): Promise<SystemUnderTest> {
  const index = new Bm25Index()
  return {
    name: 'engram-bm25-index',
    label: 'Engram `Bm25Index` directly (k1 0.9, b 0.4; no engine, no storage)',
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      for (const d of docs) index.add(d.id, indexText(d))
    },
    search: async (query, k) => index.search(query, k),
    stats: () => ({ documents: index.size }),
  }
}

/**
 * The engine's search pipeline on the memory adapter: commit, commit-listener indexing, channels, hydration.
 * `engram-default` is `engram-search` with the default pipeline (no `expand`, `rerank` or `fusion` named:
 * cc, the graph stage and `plugin:hops` for composed questions; docs/default-search.md), over the same
 * synthetic passages, which have no entities: it measures the stages' overhead, not a walk over a graph.
 * Not in ENGRAM_SCALE_SYSTEMS: run it by name (`scale-main.ts point engram-default <size>`).
 */
async function engineSystem(
  hybrid: boolean,
  pipeline: 'none' | 'default' = 'none',
): Promise<SystemUnderTest> {
  const brain = await openEngineBrain(hybrid ? { embedder: syntheticEmbedder() } : {})
  let documents = 0
  return {
    name: hybrid ? 'engram-hybrid' : pipeline === 'default' ? 'engram-default' : 'engram-search',
    label: hybrid
      ? 'Engram search, engine: passages channel BM25 + HNSW (SYNTHETIC 512-d vectors), rrf, memory adapter; excludes query embedding'
      : pipeline === 'default'
        ? 'Engram search, engine: a request with no options (cc, expand and rerank auto), memory adapter'
        : 'Engram search, engine: passages channel BM25, fusion none, memory adapter',
    scored: true,
    async index(docs) {
      await brain.commitDocs(docs, hybrid ? (d) => syntheticUnitVector(fnv1a(d.id)) : undefined)
      documents += docs.length
    },
    async search(query, k) {
      const r = await brain.search.search(
        brain.brainId,
        pipeline === 'default'
          ? { query, k }
          : {
              query,
              k,
              channels: ['passages'],
              expand: 'none',
              fusion: hybrid ? 'rrf' : 'none',
              rerank: 'none',
              profileStages: false,
            },
      )
      return r.hits.map((h) => ({ id: h.id, score: h.score }))
    },
    stats: () => ({ documents }),
    close: () => brain.close(),
  }
}

export function resolveScaleSystem(name: string): SystemResolution {
  switch (name) {
    case 'engram-bm25-index':
      return { ready: true, create: bm25IndexSystem }
    case 'engram-search':
      return { ready: true, create: () => engineSystem(false) }
    case 'engram-hybrid':
      return { ready: true, create: () => engineSystem(true) }
    case 'engram-default':
      return { ready: true, create: () => engineSystem(false, 'default') }
    default:
      if (!(name in PEERS))
        throw new Error(
          `unknown scale system '${name}' (known: ${[...ENGRAM_SCALE_SYSTEMS, ...Object.keys(PEERS)].join(', ')})`,
        )
      return scalePeer(name)
  }
}

/** Vector peers need real embeddings, which synthetic scale text has none of: they are not scale systems. */
function scalePeer(name: string): SystemResolution {
  const peer = resolvePeer(name)
  if (peer.ready && peer.usesVectors)
    throw new Error(
      `--scale: '${name}' needs real document vectors; the scale curve uses synthetic text`,
    )
  return peer
}
