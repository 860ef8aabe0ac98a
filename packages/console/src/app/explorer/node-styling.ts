import louvainModule from 'graphology-communities-louvain'
import pagerankModule from 'graphology-metrics/centrality/pagerank.js'
import { ENDED_NODE_COLOR, sizeByDegree, type ExplorerGraph } from './explorer-graph.js'
import { labelColor, PALETTE, UNLABELLED_COLOR } from './label-palette.js'

// Both packages are CommonJS with an `export default` typing: under NodeNext the default import is
// `module.exports` (the function) at run time (esbuild too) while TypeScript types it as `{ default }`.
const interop = <T>(module: { default: T }): T =>
  typeof (module as { default?: unknown }).default === 'function'
    ? module.default
    : (module as unknown as T)
const louvain = interop(louvainModule)
const pagerank = interop(pagerankModule)

/** What node size shows. */
export type SizeBy = 'degree' | 'pagerank'
/** What node colour shows. */
export type ColorBy = 'label' | 'community'

/**
 * Node sizes from PageRank (Brin & Page, 1998; graphology-metrics, damping 0.85): n * rank is 1 for an
 * average node, so sizes follow its square root like the degree's. Falls back to the degree when the
 * power iteration does not converge within 100 iterations.
 */
export function sizeByPagerank(graph: ExplorerGraph): void {
  const entities = graph.filterNodes((_n, a) => a.kind === undefined)
  let ranks: Record<string, number>
  try {
    ranks = pagerank(graph, { getEdgeWeight: null, maxIterations: 100, tolerance: 1e-6 })
  } catch {
    sizeByDegree(graph)
    return
  }
  const n = entities.length
  for (const node of entities)
    graph.setNodeAttribute(node, 'size', 3 + Math.min(14, 2.5 * Math.sqrt((ranks[node] ?? 0) * n)))
}

/** Sizes the entity nodes by `by`. */
export function applySize(graph: ExplorerGraph, by: SizeBy): void {
  if (by === 'pagerank') sizeByPagerank(graph)
  else sizeByDegree(graph)
}

/**
 * Louvain communities (Blondel, Guillaume, Lambiotte & Lefebvre, J. Stat. Mech. 2008) of the entity
 * nodes, as each node's `community`, numbered by size (0 the largest) so colours are stable for a
 * given graph. A seeded random source keeps a reload identical. Returns the community sizes.
 */
export function detectCommunities(graph: ExplorerGraph): number[] {
  if (graph.order === 0) return []
  let seed = 42
  // mulberry32: a tiny seeded generator, so the same graph gets the same communities.
  const rng = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const raw = louvain(graph, { getEdgeWeight: null, rng })
  const sizes = new Map<number, number>()
  for (const c of Object.values(raw)) sizes.set(c, (sizes.get(c) ?? 0) + 1)
  const order = [...sizes].sort((a, b) => b[1] - a[1] || a[0] - b[0])
  const rank = new Map(order.map(([c], i) => [c, i]))
  graph.forEachNode((node, a) => {
    if (a.kind === 'community') return
    graph.setNodeAttribute(node, 'community', rank.get(raw[node]!) ?? -1)
  })
  return order.map(([, size]) => size)
}

/** The colour of community `index` (by size): the palette for the largest ones, grey for the rest. */
export function communityColor(index: number | undefined): string {
  if (index === undefined || index < 0 || index >= PALETTE.length - 1) return UNLABELLED_COLOR
  return PALETTE[index]!
}

/** Colours the entity nodes by `by` (communities must have been detected for `community`). */
export function applyColor(graph: ExplorerGraph, by: ColorBy): void {
  graph.updateEachNodeAttributes(
    (_node, a) => {
      if (a.kind === 'community') return a
      a.color = a.ended
        ? ENDED_NODE_COLOR
        : by === 'community'
          ? communityColor(a.community)
          : labelColor(a.labels[0])
      return a
    },
    { attributes: ['color'] },
  )
}
