import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import { forEachStep } from '../synergies-steps.js'
import type { BehaviorWeights } from './behavior-weights.js'

/** Edges read per node on a walk (newest first beyond it), so hubs stay cheap. */
export const WALK_EDGE_CAP = 3000

/** What a node did with one neighbour: summed interaction weight, the events in between, when. */
export interface Interaction {
  weight: number
  events: number[]
  /** Newest time of the steps in ms (NaN when none is dated). */
  time: number
}

/**
 * The interactions of `node`: every non-event node one step away (directly or through an event), with
 * the summed behaviour x recency weight of the steps. With `asActor`, only steps where `node` is the
 * subject of the edge into an event (it acted: a user viewed, bought, rated).
 */
export function interactionsOf(
  graph: GraphIndex,
  node: number,
  weights: BehaviorWeights,
  options: { asActor?: boolean; cap?: number } = {},
): Map<number, Interaction> {
  const out = new Map<number, Interaction>()
  forEachStep(graph, node, options.cap ?? WALK_EDGE_CAP, (far, first, second, event) => {
    if (options.asActor && (event < 0 || graph.subject[first] !== node)) return
    const w = weights.of(first, second, event)
    const time = graph.timeOfEdge(first)
    const seen = out.get(far)
    if (seen === undefined) out.set(far, { weight: w, events: event < 0 ? [] : [event], time })
    else {
      seen.weight += w
      if (event >= 0) seen.events.push(event)
      if (time > seen.time || Number.isNaN(seen.time)) seen.time = time
    }
  })
  return out
}
