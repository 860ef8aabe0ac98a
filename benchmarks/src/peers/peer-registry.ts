import type { Embedder } from '@engram/core'
import type { BenchConfig } from '../config/bench-config.js'
import {
  createEngramGraphSearchSystem,
  GRAPH_VARIANTS,
} from '../systems/engram-graph-search-system.js'
import {
  createEngramContextPackSystem,
  PACK_VARIANTS,
} from '../systems/engram-context-pack-system.js'
import type { SystemResolution, SystemUnderTest } from '../systems/system-under-test.js'
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

/** Peers named `<prefix><variant>`: the config's own condition with one variant's change. */
interface Ablation {
  readonly prefix: string
  resolve(name: string, config: BenchConfig): SystemResolution
}

function ablation<V>(
  prefix: string,
  variants: Readonly<Record<string, V>>,
  create: (config: BenchConfig, embedder: Embedder, variant: V) => Promise<SystemUnderTest>,
): Ablation {
  return {
    prefix,
    resolve(name, config) {
      const variant = variants[name.slice(prefix.length)]
      if (variant === undefined)
        throw new Error(
          `unknown ablation '${name}' (known: ${Object.keys(variants)
            .map((v) => `${prefix}${v}`)
            .join(', ')})`,
        )
      return {
        ready: true,
        usesVectors: true,
        create: ({ vectors }) => create(config, vectors.embedder(), variant),
      }
    },
  }
}

const ABLATIONS: readonly Ablation[] = [
  ablation('engram-graph:', GRAPH_VARIANTS, createEngramGraphSearchSystem),
  ablation('engram-pack:', PACK_VARIANTS, createEngramContextPackSystem),
]

/**
 * A peer by name; `engram-graph:<ablation>` is the config's own graph condition with one component off
 * (`GRAPH_VARIANTS`) and `engram-pack:<ablation>` its context pack with one option changed
 * (`PACK_VARIANTS`), both over the brain the config's Engram system ingested (`sharedIngest`).
 */
export function resolvePeer(name: string, config?: BenchConfig): SystemResolution {
  const ablationPeer = ABLATIONS.find((a) => name.startsWith(a.prefix))
  if (ablationPeer !== undefined && config !== undefined) return ablationPeer.resolve(name, config)
  const peer = PEERS[name]
  if (!peer) throw new Error(`unknown peer '${name}' (known: ${Object.keys(PEERS).join(', ')})`)
  return peer()
}
