/** A search as the engine takes it (CONTRACT.md section 7), after the server validated bounds. */
export interface SearchRequest {
  query: string
  /** 1..200. */
  k: number
  /** `passages`, `entities`, `events`, `communities`, `plugin:<name>`; default `['passages']`. */
  channels: string[]
  nodeLabels?: string[]
  communityLabels?: string[]
  /**
   * `neighbors`: the graph stage; `auto` (default): the graph stage when every channel is a passage
   * channel (`passages` or a plugin), as the default search (`defaultPipeline`).
   */
  expand: 'auto' | 'none' | 'neighbors'
  /** `rrf`, `cc`, `none` or `plugin:<name>`; default the engine's (`cc`, see docs/search-fusion.md). */
  fusion?: string
  /** Weight of the dense side in `cc` (0..1); default the brain's calibration. */
  fusionAlpha?: number
  /**
   * `none`, `plugin:<name>` or `auto` (default): `plugin:hops` for a composed question over passage
   * channels, else none (`defaultPipeline`).
   */
  rerank: string
  /** Personalization user (uuid or name). */
  target?: string
  profileStages: boolean
  /** Metadata equality filters applied before the cut to `k` (POST only). */
  extras?: Record<string, unknown>
  /** Event time (ISO 8601): facts and passages outside their window then are left out (docs/time.md). */
  asOf?: string
  /** System time (ISO 8601): what the brain had learned by then (docs/time.md). */
  knownAt?: string
  /** Lexical only: skip dense retrieval even when an embedder is configured (the demo search). */
  lexicalOnly?: boolean
}

/**
 * A search as callers may write it: `query` and any of the other fields. `SearchService.search` fills
 * the rest with the REST defaults (`resolveSearchRequest`): k 10, channels `['passages']`, expand and
 * rerank `auto`, profileStages false.
 */
export type SearchInput = Pick<SearchRequest, 'query'> & Partial<Omit<SearchRequest, 'query'>>

/** Candidate depth per channel: enough for fusion and filters to have material (DESIGN.md section 3). */
export function candidateDepth(request: Pick<SearchRequest, 'k' | 'extras'>): number {
  const base = Math.max(request.k, 50)
  return request.extras !== undefined && Object.keys(request.extras).length > 0
    ? Math.max(base, request.k * 5, 200)
    : base
}
