import type { ExplorerGraph } from './explorer-graph.js'
import { communityColor } from './node-styling.js'

/** A graph with at least this many entities opens with its communities collapsed. */
export const COLLAPSE_MIN_NODES = 300
/** Camera ratios above this (zoomed out past it) show communities; below, their entities. */
export const COLLAPSE_RATIO = 0.45

const key = (community: number) => `community:${community}`

/**
 * Adds one node per community (`kind: 'community'`, key `community:<n>`) and one edge per pair of
 * communities that relationships join (its size grows with their count), so a large graph can be drawn
 * as a few dozen labelled communities until the user zooms in ("semantic zoom": Bloom's and Gephi's
 * clustered views). Each community node is labelled by its best connected member and the member count,
 * placed at its members' centroid ({@link placeCommunities}). Needs `community` set on the entities.
 * Returns how many communities were added.
 */
export function addCommunityLayer(graph: ExplorerGraph): number {
  const members = new Map<number, { count: number; top: string; topDegree: number }>()
  graph.forEachNode((node, a) => {
    if (a.kind === 'community' || a.community === undefined || a.community < 0) return
    const degree = graph.degree(node)
    const m = members.get(a.community)
    if (m === undefined) members.set(a.community, { count: 1, top: a.label, topDegree: degree })
    else {
      m.count++
      if (degree > m.topDegree) [m.top, m.topDegree] = [a.label, degree]
    }
  })
  const links = new Map<string, number>()
  graph.forEachEdge((_e, a, s, t, sa, ta) => {
    if (a.kind !== undefined || sa.community === undefined || ta.community === undefined) return
    if (sa.community === ta.community || sa.community < 0 || ta.community < 0) return
    const pair =
      sa.community < ta.community
        ? `${sa.community}|${ta.community}`
        : `${ta.community}|${sa.community}`
    links.set(pair, (links.get(pair) ?? 0) + 1)
  })
  for (const [community, m] of members) {
    graph.addNode(key(community), {
      x: 0,
      y: 0,
      size: Math.min(40, 6 + 2 * Math.sqrt(m.count)),
      color: communityColor(community),
      label: m.count > 1 ? `${m.top} +${(m.count - 1).toLocaleString('en')}` : m.top,
      labels: [],
      expanded: true,
      ended: false,
      window: '',
      community,
      kind: 'community',
      members: m.count,
    })
  }
  for (const [pair, count] of links) {
    const [a, b] = pair.split('|').map(Number) as [number, number]
    graph.addEdgeWithKey(`community-edge:${pair}`, key(a), key(b), {
      label: `${count} relationship${count === 1 ? '' : 's'}`,
      predicate: '',
      size: Math.min(6, 0.5 + Math.log2(1 + count) / 2),
      color: '#b7bdc9',
      ended: false,
      window: '',
      kind: 'community',
    })
  }
  placeCommunities(graph)
  return members.size
}

/** Moves each community node to the centroid of its members (after every layout frame). */
export function placeCommunities(graph: ExplorerGraph): void {
  const sums = new Map<number, { x: number; y: number; n: number }>()
  graph.forEachNode((_node, a) => {
    if (a.kind === 'community' || a.community === undefined || a.community < 0) return
    const s = sums.get(a.community) ?? { x: 0, y: 0, n: 0 }
    s.x += a.x
    s.y += a.y
    s.n++
    sums.set(a.community, s)
  })
  for (const [community, s] of sums) {
    if (!graph.hasNode(key(community))) continue
    graph.mergeNodeAttributes(key(community), { x: s.x / s.n, y: s.y / s.n })
  }
}

/** Whether the graph carries a community layer. */
export function hasCommunityLayer(graph: ExplorerGraph): boolean {
  return graph.someNode((_n, a) => a.kind === 'community')
}
