import type { BenchConfig } from '../config/bench-config.js'
import {
  createEngramGraphSearchSystem,
  GRAPH_VARIANTS,
} from '../systems/engram-graph-search-system.js'
import {
  createEngramContextPackSystem,
  PACK_VARIANTS,
} from '../systems/engram-context-pack-system.js'
import type { SystemResolution } from '../systems/system-under-test.js'
import { createExactKnnPeer } from './exact-knn-peer.js'
import { createFlexSearchPeer } from './flexsearch-peer.js'
import { createHnswlibPeer } from './hnswlib-peer.js'
import { createMiniSearchPeer } from './minisearch-peer.js'
import { createOramaHybridPeer } from './orama-hybrid-peer.js'
import { createOramaPeer } from './orama-peer.js'
import { createSqliteFts5Peer } from './sqlite-fts5-peer.js'

/**
 * Peers by config name. Vector peers (`usesVectors`) are fed the run's document and query vectors, the same
 * ones Engram's dense conditions commit and search with (benchmarks/src/vectors).
 */
export const PEERS: Record<string, () => SystemResolution> = {
  minisearch: () => ({ ready: true, create: createMiniSearchPeer }),
  flexsearch: () => ({ ready: true, create: createFlexSearchPeer }),
  orama: () => ({ ready: true, create: createOramaPeer }),
  'sqlite-fts5': () => ({ ready: true, create: createSqliteFts5Peer }),
  'orama-hybrid': () => ({ ready: true, usesVectors: true, create: createOramaHybridPeer }),
  'hnswlib-raw': () => ({ ready: true, usesVectors: true, create: createHnswlibPeer }),
  'exact-knn': () => ({ ready: true, usesVectors: true, create: createExactKnnPeer }),
}

/**
 * A peer by name; `engram-graph:<ablation>` is the config's own graph condition with one component off
 * (`GRAPH_VARIANTS`) and `engram-pack:<ablation>` its context pack with one option changed
 * (`PACK_VARIANTS`), over the same ingested brain (`sharedIngest`).
 */
export function resolvePeer(name: string, config?: BenchConfig): SystemResolution {
  if (name.startsWith('engram-graph:') && config !== undefined) {
    const variant = GRAPH_VARIANTS[name.slice('engram-graph:'.length)]
    if (variant === undefined)
      throw new Error(
        `unknown ablation '${name}' (known: ${Object.keys(GRAPH_VARIANTS)
          .map((v) => `engram-graph:${v}`)
          .join(', ')})`,
      )
    return {
      ready: true,
      usesVectors: true,
      create: ({ vectors }) => createEngramGraphSearchSystem(config, vectors.embedder(), variant),
    }
  }
  if (name.startsWith('engram-pack:') && config !== undefined) {
    const variant = PACK_VARIANTS[name.slice('engram-pack:'.length)]
    if (variant === undefined)
      throw new Error(
        `unknown ablation '${name}' (known: ${Object.keys(PACK_VARIANTS)
          .map((v) => `engram-pack:${v}`)
          .join(', ')})`,
      )
    return {
      ready: true,
      usesVectors: true,
      create: ({ vectors }) => createEngramContextPackSystem(config, vectors.embedder(), variant),
    }
  }
  const peer = PEERS[name]
  if (!peer) throw new Error(`unknown peer '${name}' (known: ${Object.keys(PEERS).join(', ')})`)
  return peer()
}
