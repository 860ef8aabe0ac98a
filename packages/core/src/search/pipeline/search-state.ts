import type { Candidate, ChannelList } from '../../contracts/search-plugins.js'
import type { SearchRequest } from '../search-request.js'
import type { Entity } from '../../model/entity.js'
import type { Extras } from '../extras.js'

/** A slot of `hit.scores` a stage fills. */
export type StageScoreKey = 'rerank' | 'personalize'

/**
 * What one search carries from step to step (retrieve -> fuse -> stages -> hydrate -> assemble). Each
 * step reads what the steps before it wrote and writes its own part; nothing else holds search state.
 */
export interface SearchState {
  readonly request: SearchRequest
  /** Candidates asked of each channel (`candidateDepth`). */
  readonly depth: number
  /** Channel lists as retrieved, in channel order (retrieve). */
  lists: ChannelList[]
  /** The request name of the channel behind each list (`passages`, `plugin:<name>`). */
  readonly listChannel: Map<ChannelList, string>
  /**
   * Candidates best first (fuse, then each stage). `score` is the current score: the fused one, or the
   * one the last stage that rescored the candidate gave it.
   */
  ranked: Candidate[]
  /** The score each candidate entered the ranking with: fused, or its expansion score. */
  readonly entryScore: Map<string, number>
  /** Lists stages added to the ranking (`neighbors`), in stage order. */
  readonly added: ChannelList[]
  /** Scores stages set, by the `hit.scores` slot they fill. */
  readonly stageScores: Map<StageScoreKey, Map<string, number>>
  /** Records of the candidates, loaded all at once or k at a time (hydrate). */
  hydration: Hydration | null
}

export function createSearchState(request: SearchRequest, depth: number): SearchState {
  return {
    request,
    depth,
    lists: [],
    listChannel: new Map(),
    ranked: [],
    entryScore: new Map(),
    added: [],
    stageScores: new Map(),
    hydration: null,
  }
}

/** A candidate's record, as hits and stages read it. */
export interface HitRecord {
  kind: 'passage' | 'entity'
  nodeId: string
  labels: string[]
  text: string
  extras: Extras
  entity: Entity | null
}

/** The candidates whose records may be loaded, and how far loading has gone. */
export interface Hydration {
  /** The first max(depth, 5k) ranked candidates when hydration started: hits come only from these. */
  readonly window: Candidate[]
  readonly records: Map<string, HitRecord>
  /** Window positions loaded so far. */
  hydrated: number
}
