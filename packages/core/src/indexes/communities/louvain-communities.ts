import louvainModule from 'graphology-communities-louvain'
import { mulberry32 } from '../../seeded-random.js'
import type { KnowledgeMultiGraph } from './graphology-view.js'

// The package is CommonJS with an `export default` typing: under NodeNext the default import is
// `module.exports` (the function) at run time while TypeScript types it as `{ default }`.
type Louvain = typeof louvainModule.default
const louvain: Louvain =
  typeof (louvainModule as { default?: unknown }).default === 'function'
    ? louvainModule.default
    : (louvainModule as unknown as Louvain)

export interface LouvainOptions {
  /** Modularity resolution γ: above 1 gives more, smaller communities (default 1, as in the paper). */
  resolution?: number
  /** Seed of the node visiting order, so a graph always gets the same partition (default 42). */
  seed?: number
}

export interface Partition {
  /** Community number (0..count-1) per node key. */
  communityOf: Map<string, number>
  count: number
  /** Modularity of the partition (directed form). */
  modularity: number
}

/**
 * Louvain community detection (Blondel, Guillaume, Lambiotte & Lefebvre, "Fast unfolding of
 * communities in large networks", J. Stat. Mech. 2008, P10008), through
 * `graphology-communities-louvain`, which uses the directed modularity of Dugué & Perez (2015) on a
 * directed graph and sums the weights of parallel edges. Nodes are visited in a random order (it
 * converges faster); the generator is seeded so results are reproducible, as benchmarks need.
 *
 * Measured on this 2-core machine: 10k nodes / 50k edges in ~0.15 s, 100k / 500k in ~2.1 s.
 */
export function louvainPartition(
  graph: KnowledgeMultiGraph,
  options: LouvainOptions = {},
): Partition {
  if (graph.order === 0) return { communityOf: new Map(), count: 0, modularity: 0 }
  if (graph.size === 0) {
    // Louvain is undefined without edges (modularity divides by the total weight): singletons.
    const communityOf = new Map(graph.nodes().map((n, i) => [n, i]))
    return { communityOf, count: communityOf.size, modularity: 0 }
  }
  const detailed = louvain.detailed(graph, {
    getEdgeWeight: 'weight',
    resolution: options.resolution ?? 1,
    rng: mulberry32(options.seed ?? 42),
  })
  return {
    communityOf: new Map(Object.entries(detailed.communities)),
    count: detailed.count,
    modularity: detailed.modularity,
  }
}
