import { forEachStep } from '../synergies-steps.js'
import type { ChannelHit, RecommendContext } from './recommend-types.js'
import { WALK_EDGE_CAP } from './target-interactions.js'

/**
 * Asymmetric walks along event edges (original-notes.md section A.7): from the target into an event and
 * out along another leg of the same flow. `outbound` follows events the target is the subject of
 * (target -> EVENT -> node: what it bought, attended, rated); `inbound` events that point at it
 * (node -> EVENT -> target: who bought it). Score per node: the sum over such events of behaviour weight
 * x recency decay; `connectedBy` lists the events, newest interaction first.
 */
export function asymmetricChannel(
  ctx: RecommendContext,
  direction: 'outbound' | 'inbound',
): ChannelHit[] {
  const { graph, target, weights } = ctx
  const hits = new Map<number, ChannelHit>()
  forEachStep(graph, target, WALK_EDGE_CAP, (far, first, second, event) => {
    if (event < 0) return
    const outbound = graph.subject[first] === target
    if (outbound !== (direction === 'outbound')) return
    const w = weights.of(first, second, event)
    const hit = hits.get(far)
    if (hit === undefined) hits.set(far, { node: far, score: w, connectedBy: [event] })
    else {
      hit.score += w
      hit.connectedBy.push(event)
    }
  })
  return [...hits.values()]
}
