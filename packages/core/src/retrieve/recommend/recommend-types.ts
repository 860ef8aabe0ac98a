import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import type { RetrieveDeps } from '../retrieve-deps.js'
import type { BehaviorWeights } from './behavior-weights.js'
import type { Interaction } from './target-interactions.js'

/** Where a recommendation came from (CONTRACT.md section 6, `channel`). */
export type RecommendChannel =
  | 'synergy'
  | 'asymmetric_outbound'
  | 'asymmetric_inbound'
  | 'collaborative'
  | 'multi_interest'
  | 'attribute_pref'

/** One candidate a channel proposes: a node number, a channel-local score and what links it. */
export interface ChannelHit {
  node: number
  score: number
  /** Nodes that explain the hit (a peer, an event, a medoid, an attribute), strongest first. */
  connectedBy: number[]
}

/** What every channel reads while serving one request. */
export interface RecommendContext {
  deps: RetrieveDeps
  graph: GraphIndex
  /** The target node. */
  target: number
  /** Weight of an interaction (behaviour weight x recency decay) along a step from a node. */
  weights: BehaviorWeights
  /** Candidate labels (any-match), empty for any. */
  labels: ReadonlySet<string>
  polarity: 'same' | 'opposite'
  topK: number
  /**
   * The final filter (target, events, labels, polarity, seen nodes with `exclude_seen`): channels that
   * cut their list to a length apply it first, so the cut keeps candidates that can be returned.
   */
  keep: (node: number) => boolean
  /** The target's interactions (every step from it), computed once per request. */
  interactions: () => ReadonlyMap<number, Interaction>
}
