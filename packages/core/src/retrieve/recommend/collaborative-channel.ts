import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import { forEachStep } from '../synergies-steps.js'
import { historyWeights } from './history-weights.js'
import type { ChannelHit, RecommendContext } from './recommend-types.js'
import { interactionsOf, WALK_EDGE_CAP } from './target-interactions.js'

/** Peers whose items are read (the closest first): bounds the walk on a graph with many actors. */
export const COLLABORATIVE_PEERS = 200
/** Hits returned per requested recommendation (the best, after the request's filter). */
export const HITS_PER_RECOMMENDATION = 5
const MAX_CONNECTED_BY = 3
/** The target's newest interactions read before the recency weights (all of them still count as seen). */
export const RECENT_ITEMS = 500

/**
 * Collaborative walk: target -> EVENT -> item <- EVENT <- peer -> EVENT -> item the target has not
 * interacted with. Item-based collaborative filtering with cosine similarity (Sarwar, Karypis,
 * Konstan & Riedl, "Item-based collaborative filtering recommendation algorithms", WWW 2001;
 * Deshpande & Karypis, ACM TOIS 2004) computed at query time through the layer of peers instead of a
 * precomputed item-item matrix, as the random-walk recommenders P3alpha / RP3beta do (Cooper, Lee,
 * Radzik & Siantos, "Random walks in recommender systems", WWW 2014; Paudel, Christoffel, Fitzpatrick
 * & Bernstein, ACM TiiS 2016), so there is no training step:
 *
 *   score(j) = 1/sqrt(n(j)) x sum over peers v of 1/sqrt(n(v)) x sum over items i of both the target
 *              and v of h(i) x w_v(i) / sqrt(n(i)) x w_v(j)
 *
 * - n(x): interactions of x (its edges into events). 1/sqrt(n(i) n(j)) is the cosine of binary item
 *   vectors, which keeps popular items from winning by volume; 1/sqrt(n(v)) damps very active peers,
 *   whose co-occurrences say less (inverse user frequency: Breese, Heckerman & Kadie, "Empirical
 *   analysis of predictive algorithms for collaborative filtering", UAI 1998);
 * - h(i): the target's own interaction weight (behaviour x recency) times its recency rank weight
 *   (`historyWeights`): the latest items lead the walk;
 * - w_v(i), w_v(j): the peer's interaction weights (behaviour x recency).
 *
 * The items of the {@link COLLABORATIVE_PEERS} closest peers are scored (no neighbourhood is cut per
 * item), nothing the target ever interacted with; the best {@link HITS_PER_RECOMMENDATION} x top_k
 * that pass the request's filter are returned, each with the peers that contributed most as
 * `connectedBy`. Empty when the target acted on nothing (e.g. an item rather than a user).
 */
export function collaborativeChannel(ctx: RecommendContext): ChannelHit[] {
  const { graph, target, weights } = ctx
  const history = historyWeights(
    interactionsOf(graph, target, weights, { asActor: true, cap: RECENT_ITEMS }),
    ctx.tuning.historyHalfLife,
  )
  if (history.size === 0) return []
  const n = interactionCounter(graph)

  // Hops 1-2: how close each peer is, through the items it shares with the target's history. Maps of
  // the nodes the walk reaches, not arrays the size of the graph: a request costs what it touches.
  const reach = new Map<number, number>()
  for (const [item, h] of history) {
    const x = h / Math.sqrt(n(item))
    forEachStep(graph, item, WALK_EDGE_CAP, (peer, first, second, event) => {
      if (event < 0 || peer === target || graph.subject[second] !== peer) return
      reach.set(peer, (reach.get(peer) ?? 0) + x * weights.of(second, first, event))
    })
  }
  const nearest = [...reach]
    .map(([peer, r]) => [peer, r / Math.sqrt(n(peer))] as const)
    .filter(([, c]) => c > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, COLLABORATIVE_PEERS)
  const closeness = new Map(nearest)

  // Hop 3: the peers' votes for items the target never interacted with.
  const seen = ctx.interactions()
  const score = new Map<number, number>()
  for (const [peer, c] of nearest) {
    forEachStep(graph, peer, WALK_EDGE_CAP, (item, first, second, event) => {
      if (event < 0 || item === target || seen.has(item) || graph.subject[first] !== peer) return
      score.set(item, (score.get(item) ?? 0) + c * weights.of(first, second, event))
    })
  }
  const best = [...score]
    .filter(([item]) => ctx.keep(item))
    .map(([item, s]) => ({ node: item, score: s / Math.sqrt(n(item)) }))
    .sort((a, b) => b.score - a.score || a.node - b.node)
    .slice(0, HITS_PER_RECOMMENDATION * ctx.topK)
  return best.map((hit) => ({ ...hit, connectedBy: strongestPeers(ctx, hit.node, closeness) }))
}

/** The peers whose votes for `item` weigh most (closeness x their interaction weight). */
function strongestPeers(
  ctx: RecommendContext,
  item: number,
  closeness: ReadonlyMap<number, number>,
): number[] {
  const { graph, weights } = ctx
  const votes = new Map<number, number>()
  forEachStep(graph, item, WALK_EDGE_CAP, (peer, first, second, event) => {
    const c = closeness.get(peer)
    if (event < 0 || c === undefined || graph.subject[second] !== peer) return
    votes.set(peer, (votes.get(peer) ?? 0) + c * weights.of(second, first, event))
  })
  return [...votes]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_CONNECTED_BY)
    .map(([peer]) => peer)
}

/**
 * Interaction counts per graph, kept between requests while the graph is unchanged: counting a node's
 * edges into events is the same work for every request, and a walk asks for every item it reaches.
 * `GraphIndex.changes` moves with every edge and label write, so a stale count is never read.
 */
const counts = new WeakMap<GraphIndex, { changes: number; counts: Map<number, number> }>()

/** Interactions of a node (its live edges into events, at least 1). */
function interactionCounter(graph: GraphIndex): (node: number) => number {
  let cached = counts.get(graph)
  // Counts of the nodes asked about, not an array the size of the graph: a write between two requests
  // drops them, and a new array per write would cost in proportion to the brain.
  if (cached === undefined || cached.changes !== graph.changes) {
    cached = { changes: graph.changes, counts: new Map() }
    counts.set(graph, cached)
  }
  const counted = cached.counts
  return (node) => {
    let c = counted.get(node)
    if (c === undefined) {
      c = 0
      const edges = graph.adjacency[node]!
      for (let i = 0; i < edges.length; i++) {
        const e = edges[i]!
        if (graph.valid[e] && graph.usable(e) && graph.isEvent[graph.other(e, node)]) c++
      }
      counted.set(node, (c = Math.max(1, c)))
    }
    return c
  }
}
