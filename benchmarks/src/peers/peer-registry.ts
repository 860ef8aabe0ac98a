import type { SystemResolution } from '../systems/system-under-test.js'
import { createFlexSearchPeer } from './flexsearch-peer.js'
import { createMiniSearchPeer } from './minisearch-peer.js'
import { createOramaPeer } from './orama-peer.js'
import { createSqliteFts5Peer } from './sqlite-fts5-peer.js'

/**
 * Peers by config name. Vector peers (Orama hybrid, raw hnswlib-node and exact search as the vector limit) need
 * document and query embeddings, which the harness does not produce yet: they are named here as pending.
 */
const NEEDS_EMBEDDER =
  'document and query vectors: the harness does not embed corpora yet (useLiteEmbedder exists in packages/core)'

export const PEERS: Record<string, () => SystemResolution> = {
  minisearch: () => ({ ready: true, create: createMiniSearchPeer }),
  flexsearch: () => ({ ready: true, create: createFlexSearchPeer }),
  orama: () => ({ ready: true, create: createOramaPeer }),
  'sqlite-fts5': () => ({ ready: true, create: createSqliteFts5Peer }),
  'orama-hybrid': () => ({ ready: false, missing: NEEDS_EMBEDDER }),
  'hnswlib-raw': () => ({ ready: false, missing: NEEDS_EMBEDDER }),
  'exact-knn': () => ({ ready: false, missing: NEEDS_EMBEDDER }),
}

export function resolvePeer(name: string): SystemResolution {
  const peer = PEERS[name]
  if (!peer) throw new Error(`unknown peer '${name}' (known: ${Object.keys(PEERS).join(', ')})`)
  return peer()
}
