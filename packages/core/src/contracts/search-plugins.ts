import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'

/** One scored candidate: a passage id or an entity uuid. */
export interface Candidate {
  id: string
  score: number
}

/** A term after a BM25 index's analysis, with its inverse document frequency there. */
export interface TermWeight {
  term: string
  idf: number
}

/** Lexical search over one of a brain's BM25 indexes. */
export interface TextReader {
  /**
   * Best first. `index` is `passages`, `entities`, `events` or `observations`. An entity scores the
   * best of its names: its name (with its description) and each alias matched on its own.
   */
  search(
    index: 'passages' | 'entities' | 'events' | 'observations',
    query: string,
    k: number,
    filter?: (id: string) => boolean,
  ): Candidate[]
  /**
   * The distinct terms of `text` as that index analyses it (the brain's BM25 settings: stemming,
   * stopwords, letter/digit splits), with their idf there; terms no document holds are left out.
   * Highest idf first.
   */
  terms(index: 'passages' | 'entities' | 'events' | 'observations', text: string): TermWeight[]
  /**
   * Which of `terms` (terms as `terms` gives them) document `id` of that index holds, in the order
   * given; undefined when the index has no document `id`. Read from the index's own term lists: the
   * document is neither loaded nor analysed again.
   */
  held(
    index: 'passages' | 'entities' | 'events' | 'observations',
    id: string,
    terms: readonly string[],
  ): string[] | undefined
  /**
   * How widely that index's documents hold `text`: `holding`, the documents holding its rarest term
   * after analysis (0 when no document holds one of its terms; an upper bound of those holding them
   * all), and `total`, the index's documents. A text of stopwords only is held by every document.
   */
  spread(
    index: 'passages' | 'entities' | 'events' | 'observations',
    text: string,
  ): { holding: number; total: number }
}

/** Dense search over a brain's vectors; absent when no embedder is configured. */
export interface VectorReader {
  /**
   * Best first by cosine; [] when the brain has no vectors in `space`. `filter` keeps only the ids it
   * accepts (applied inside the index, so k hits can still come back).
   */
  search(
    space: 'passages' | 'entities',
    vector: Float32Array,
    k: number,
    filter?: (id: string) => boolean,
  ): Promise<Candidate[]>
  /** Stored (unit) vectors of the ids that have one. */
  get(space: 'passages' | 'entities', ids: string[]): Promise<Map<string, Float32Array>>
}

/** One edge seen from a node: the relationship and the node at its other end. */
export interface GraphNeighbour {
  /** The node at the other end. */
  uuid: string
  relationshipUuid: string
  /** `out`: the node asked about is the subject; `in`: it is the object. */
  direction: 'out' | 'in'
  /** The relationship is deprecated (still in the store, no longer asserted). */
  deprecated: boolean
}

/** Where a graph walk starts: weights (any positive scale) per passage id and per entity uuid. */
export interface GraphWalkSeeds {
  readonly passages: ReadonlyMap<string, number>
  readonly entities: ReadonlyMap<string, number>
}

/**
 * What a walk leaves out: nodes with one of `skipLabels` (e.g. `EVENT`) neither hold nor pass mass
 * (default `VALUE_LABELS`).
 */
export interface GraphWalkOptions {
  readonly skipLabels?: readonly string[]
  /** Do not step from a passage to an entity no other passage cites (it can only lead back). */
  readonly skipDeadEnds?: boolean
}

/** Stationary mass of the passages and entities a walk reached (sums to at most 1). */
export interface GraphWalkResult {
  readonly passages: ReadonlyMap<string, number>
  readonly entities: ReadonlyMap<string, number>
}

/** Which sequences `GraphReader.sequenceNeighbours` reads: source and session (`any`), or the session alone. */
export type SequenceKind = 'any' | 'session'

/** Read access to the brain's records and graph, for channels and stages. */
export interface GraphReader {
  entities(uuids: string[]): Promise<Entity[]>
  passages(ids: string[]): Promise<Passage[]>
  /** Relationships touching an entity (both directions, a self-loop once, deprecated included). */
  relationshipsOf(uuid: string): Promise<Relationship[]>
  /**
   * The relationships of an entity counted as `relationshipsOf` returns them (deprecated included, a
   * self-loop once), read from the in-memory graph: no store call.
   */
  degree(uuid: string): Promise<number>
  /** The other ends of an entity's relationships (self-loops left out), from the in-memory graph. */
  neighbours(uuid: string): Promise<GraphNeighbour[]>
  /**
   * Personalised PageRank over the passage-entity graph (passages linked to the entities extracted from
   * them, entities to each other by relationships), from the seeds; see `indexes/graph/passage-walk.ts`.
   * Entity seeds are weighted by specificity (divided by the passages citing them), as HippoRAG does,
   * counted once per passage, and scaled by the share of the passage seeds' weight on passages with entities.
   */
  walk(seeds: GraphWalkSeeds, options?: GraphWalkOptions): Promise<GraphWalkResult>
  /**
   * The passages just before and after each of `ids` in its ingested text (chunks) and conversation
   * session (`session_id` / `session` metadata), in reading order; ids without any are left out.
   * `within: 'session'` reads the sessions alone (what the graph stage lends scores along).
   */
  sequenceNeighbours(
    ids: readonly string[],
    within?: SequenceKind,
  ): Promise<ReadonlyMap<string, readonly string[]>>
}

/** Attributes of the brain's entities, kept in memory by the engine (no store call). */
export interface EntityReader {
  /** Labels of an entity (events included); undefined when the brain has no such entity. */
  labels(uuid: string): readonly string[] | undefined
  /** `happenedAt` of an entity, null when undated; undefined when the brain has no such entity. */
  happenedAt(uuid: string): string | null | undefined
  /** Entities whose normalised name or alias equals `name` once normalised. */
  byName(name: string): Promise<Entity[]>
}

/** A community whose summary matches the query. */
export interface CommunityHit {
  id: string
  /** Relevance of the community's summary to the query (BM25). */
  score: number
  /** Hub uuids, most central first (only nodes of the requested `community_labels`, when given). */
  hubs: readonly string[]
  /** Members that may be returned, most central first; `centrality` in [0, 1]. */
  members: readonly { uuid: string; centrality: number }[]
}

/** Read access to one brain's communities (built and kept fresh by the engine, never by a plugin). */
export interface CommunityReader {
  /**
   * Best first; with `hubLabels`, only communities with a member of one of those labels. At most
   * `maxMembers` members per community, most central first. The first call may compute the
   * communities.
   */
  search(
    text: string,
    k: number,
    hubLabels: readonly string[] | undefined,
    maxMembers: number,
  ): Promise<CommunityHit[]>
}

/** What a plugin may use while serving one request (STYLE item 4: narrow readers, never the engine). */
export interface SearchContext {
  readonly brainId: string
  readonly text: TextReader
  readonly vectors: VectorReader | null
  readonly graph: GraphReader
  readonly entities: EntityReader
  readonly communities: CommunityReader
  /** Embeds the query once per request (memoised); null without an embedder. */
  readonly embed: ((text: string) => Promise<Float32Array>) | null
  /** Times a named step into `stage_timings`. */
  readonly timer: { time<T>(stage: string, fn: () => Promise<T>): Promise<T> }
  readonly signal: AbortSignal
}

export interface ChannelQuery {
  text: string
  /** Candidates wanted (depth >= max(k, 50)). */
  depth: number
  nodeLabels?: string[]
  communityLabels?: string[]
}

/** A ranked list a channel returns; `signal` names the score it fills in `hit.scores`. */
export interface ChannelList {
  name: string
  signal: 'bm25' | 'dense' | 'graph' | 'plugin'
  items: Candidate[]
}

/** Produces ranked candidate lists for a query. Return [] for "nothing found"; throw only on failure. */
export interface ChannelPlugin {
  readonly kind: 'channel'
  readonly name: string
  /** `passages` hits are passages; graph channels return entity uuids. */
  readonly yields: 'passages' | 'entities'
  search(query: ChannelQuery, ctx: SearchContext): Promise<ChannelList[]>
}

/**
 * How each list's scores are put on one scale before weighting: `min-max` ((s - min) / (max - min)),
 * `z-score` ((s - mean) / sd) or `dbsf` (distribution-based score fusion: min-max between mean - 3 sd
 * and mean + 3 sd, not clipped); each shifted so that an id the list did not return scores 0 and
 * every id it returned more (`builtins/fusions/score-normalization.ts`).
 */
export type ScoreNormalization = 'min-max' | 'z-score' | 'dbsf'

/**
 * Weights of a weighted score fusion (`cc`), calibrated per embedder: the fused score is
 * (1 - denseShare) * sum(bm25 lists) + denseShare * sum(dense lists) + graphWeight * sum(graph and
 * plugin lists), each list normalised first.
 */
export interface FusionCalibration {
  readonly normalization: ScoreNormalization
  /** Share of the dense lists against the BM25 lists (0..1); the request's `fusion_alpha` overrides it. */
  readonly denseShare: number
  /** Weight of each graph (`entities`, `events`, ...) and plugin list. */
  readonly graphWeight: number
}

export interface FusionOptions {
  /** Weight of the dense side for convex combination (0..1); overrides `calibration.denseShare`. */
  alpha?: number
  /** The brain's calibrated weights (by the embedder it was built with); a fusion may ignore them. */
  calibration?: FusionCalibration
}

/** Merges ranked lists into one scored list, best first. */
export interface FusionPlugin {
  readonly kind: 'fusion'
  readonly name: string
  /**
   * Whether the fused score is the fusion's own, reported in `hit.scores` under the fusion's request
   * name (`scores.rrf`, `scores.cc`, `scores.plugin.<name>`). Default true; `none` passes channel
   * scores through and sets it false.
   */
  readonly scored?: boolean
  fuse(lists: ChannelList[], options: FusionOptions): Candidate[]
}

/** A hit as stages see it: id, current score, its text and node (when it is an entity). */
export interface StageHit {
  id: string
  /** The score the hit ranks by when the stage runs: fused, or set by an earlier stage. */
  score: number
  /** The record's text; '' for a stage that reads candidates only. */
  text: string
  /** The entity record when the hit is an entity; null for passages and candidate-only stages. */
  entity: Entity | null
}

/** The rest of the search a stage may read besides its hits. */
export interface StageSearch {
  /** Every channel list of the search, as retrieved (seeds for expansion). */
  readonly lists: readonly ChannelList[]
  /** The user the request personalises for (`target`), when it names one. */
  readonly target?: string
}

/** What a stage returns when it does more than rescore. */
export interface StageResult {
  /** New score per rescored id; lands in `hit.scores` under the stage's slot (`rerank`, ...). */
  scores: Map<string, number>
  /**
   * The new order of the hits the stage saw, by id. Without it, rescored hits go first by score (ties
   * by id), then the others in their order.
   */
  order?: readonly string[]
  /** Candidates to add (neighbour expansion), merged into the ranking by score; named in `channel_lists`. */
  added?: ChannelList
}

/**
 * Runs over the ranked candidates, in its place in the stage order (expansion, rerank,
 * personalization). Reorders or adds, never drops a hit.
 */
export interface StagePlugin {
  readonly kind: 'stage'
  readonly name: string
  /** Readers the stage cannot work without; a request naming it gets a 400 when one is null. */
  readonly requires?: readonly ('embed' | 'vectors')[]
  /**
   * `records` (default): hits carry their text and entity, and candidates without a stored record are
   * dropped before the stage runs. `candidates`: ids and scores only, before any record is loaded.
   */
  readonly reads?: 'records' | 'candidates'
  /** How many of the ranked hits the stage sees, best first (default 50); the rest keep their order. */
  readonly head?: number
  /** A plain map is the scores of a rescoring stage (`StageResult.scores`). */
  run(
    query: string,
    hits: StageHit[],
    ctx: SearchContext,
    search: StageSearch,
  ): Promise<Map<string, number> | StageResult>
}

export type SearchPlugin = ChannelPlugin | FusionPlugin | StagePlugin

/**
 * Fused candidates from the search pipeline (retrieve -> fuse), best first, as graph operations read
 * them: `depth` candidates per channel of the engine's `passages` or `seeds` channel set.
 */
export type CandidateSource = (
  set: 'passages' | 'seeds',
  query: string,
  depth: number,
) => Promise<Candidate[]>
