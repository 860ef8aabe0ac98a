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

/**
 * Settings the engine fixes (each default is named where it is used), open to callers that compare
 * candidates, such as the MovieLens benchmark on its validation split. Not part of the REST contract.
 */
export interface RecommendTuning {
  /** Half-life of the target's history in interactions (`historyWeights`, default `HISTORY_HALF_LIFE`). */
  historyHalfLife?: number
  /** Channel weights of the fusion, over `CHANNEL_WEIGHTS`. */
  channelWeights?: Partial<Record<RecommendChannel, number>>
  /** MMR trade-off between relevance and novelty (`diversify`, default `MMR_LAMBDA`). */
  mmrLambda?: number
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
  tuning: RecommendTuning
}

export interface RecommendOptions {
  /** `same` (default): drop candidates of the sign opposite to the target's; `opposite`: keep only those. */
  polarity?: 'same' | 'opposite'
  /** Recommendations returned, 1..200 (default 20). */
  topK?: number
  /** Event walks from the target (asymmetric outbound/inbound) and collaborative walks (default true). */
  includeAsymmetric?: boolean
  /** One medoid per interest cluster of the target (default true). */
  includeMultiInterest?: boolean
  /** Attribute preferences (default false). */
  includeAttributePref?: boolean
  /** MMR re-ordering for variety (default true). */
  diversify?: boolean
  /** Which event walks: `outbound` (default), `inbound` or `both`. */
  asymmetricDirection?: 'outbound' | 'inbound' | 'both'
  /** Drop nodes the target already interacted with (default false). */
  excludeSeen?: boolean
  /** Divide synergy, multi-interest and attribute scores by log2(2 + degree) (default false). */
  dampenDegree?: boolean
  /** Half-life of interactions in days; absent or 0: no decay. */
  recencyHalfLifeDays?: number
  /** Candidate labels (any-match). */
  labels?: string[]
  /** Behaviour name -> weight, over the defaults (names normalised, aliases folded). */
  behaviorWeights?: Record<string, number>
  /** Engine settings for benchmarks that compare candidates (not on the REST API). */
  tuning?: RecommendTuning
}
