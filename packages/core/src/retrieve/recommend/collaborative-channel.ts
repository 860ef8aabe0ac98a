import { keepTop, topContributors } from '../synergies-contributors.js'
import { forEachStep, specificity } from '../synergies-steps.js'
import type { ChannelHit, RecommendContext } from './recommend-types.js'
import { interactionsOf, WALK_EDGE_CAP } from './target-interactions.js'

/** Peers whose items are read (the most similar first), as user-based kNN keeps k neighbours. */
export const COLLABORATIVE_PEERS = 50
const MAX_CONNECTED_BY = 3
/** Interactions read per peer (the newest): a very active peer's distant past says little. */
export const PEER_EDGE_CAP = 1000
/** The target's newest interactions that find its peers (all of them still count as seen). */
export const RECENT_ITEMS = 500

/**
 * Collaborative walks: target -> EVENT -> item <- EVENT <- peer -> EVENT -> item the target has not
 * interacted with. User-based neighbourhood collaborative filtering (Herlocker, Konstan, Borchers &
 * Riedl, "An algorithmic framework for performing collaborative filtering", SIGIR 1999), computed at
 * query time from the event graph:
 *
 * - peer similarity = sum over shared items of w_target(i) x w_peer(i) x 1 / log2(2 + degree(i))
 *   (interaction weights are behaviour x recency; popular items are damped as Adamic & Adar damp hubs),
 *   divided by sqrt(degree(peer)) so very active peers do not win by volume alone;
 * - the {@link COLLABORATIVE_PEERS} most similar peers vote for their other items with
 *   similarity x their own interaction weight.
 *
 * Peers are found from the target's {@link RECENT_ITEMS} newest items it acted on (subject of the edge
 * into an event), among nodes that acted on them too; nothing the target ever interacted with is voted
 * for. `connectedBy` lists the peers that contributed most. Empty when the target acted on nothing
 * (e.g. an item rather than a user).
 */
export function collaborativeChannel(ctx: RecommendContext): ChannelHit[] {
  const { graph, target, weights } = ctx
  const mine = ctx.interactions()
  const recent = interactionsOf(graph, target, weights, { asActor: true, cap: RECENT_ITEMS })
  if (recent.size === 0) return []

  const similarity = new Float64Array(graph.nodeCount)
  const peers: number[] = []
  for (const [item, interaction] of recent) {
    const w = interaction.weight * specificity(graph, item)
    forEachStep(graph, item, WALK_EDGE_CAP, (peer, first, second, event) => {
      if (event < 0 || peer === target || graph.subject[second] !== peer) return
      if (similarity[peer] === 0) peers.push(peer)
      similarity[peer]! += w * weights.of(first, second, event)
    })
  }
  const nearest = peers
    .map((peer) => [peer, similarity[peer]! / Math.sqrt(Math.max(1, graph.degree(peer)))] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, COLLABORATIVE_PEERS)

  const score = new Float64Array(graph.nodeCount)
  const items: number[] = []
  const via = new Map<number, number[]>()
  for (const [peer, sim] of nearest) {
    if (sim <= 0) continue
    forEachStep(graph, peer, PEER_EDGE_CAP, (item, first, second, event) => {
      if (event < 0 || graph.subject[first] !== peer) return
      if (item === target || mine.has(item)) return
      const vote = sim * weights.of(first, second, event)
      if (score[item] === 0) items.push(item)
      score[item]! += vote
      keepTop(via, item, peer, vote, MAX_CONNECTED_BY)
    })
  }
  return items.map((node) => ({
    node,
    score: score[node]!,
    connectedBy: topContributors(via.get(node)!),
  }))
}
