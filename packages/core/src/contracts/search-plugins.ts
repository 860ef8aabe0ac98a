import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'

/** One scored candidate: a passage id or an entity uuid. */
export interface Candidate {
  id: string
  score: number
}

/** Lexical search over one of a brain's BM25 indexes. */
export interface TextReader {
  /** Best first. `index` is `passages`, `entities`, `events` or `observations`. */
  search(
    index: 'passages' | 'entities' | 'events' | 'observations',
    query: string,
    k: number,
    filter?: (id: string) => boolean,
  ): Candidate[]
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

/** Read access to the brain's records and graph, for channels and stages. */
export interface GraphReader {
  entities(uuids: string[]): Promise<Entity[]>
  passages(ids: string[]): Promise<Passage[]>
  /** Relationships touching an entity (both directions). */
  relationshipsOf(uuid: string): Promise<Relationship[]>
}

/** What a plugin may use while serving one request (STYLE item 4: narrow readers, never the engine). */
export interface SearchContext {
  readonly brainId: string
  readonly text: TextReader
  readonly vectors: VectorReader | null
  readonly graph: GraphReader
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

export interface FusionOptions {
  /** Weight of the dense side for convex combination (0..1). */
  alpha?: number
}

/** Merges ranked lists into one scored list, best first. */
export interface FusionPlugin {
  readonly kind: 'fusion'
  readonly name: string
  fuse(lists: ChannelList[], options: FusionOptions): Candidate[]
}

/** A hit as stages see it: id, fused score, its text and node (when it is an entity). */
export interface StageHit {
  id: string
  score: number
  text: string
  entity: Entity | null
}

/** Reorders (never drops) the head of the fused list; returns a score per id it rescored. */
export interface StagePlugin {
  readonly kind: 'stage'
  readonly name: string
  /** Readers the stage cannot work without; a request naming it gets a 400 when one is null. */
  readonly requires?: readonly ('embed' | 'vectors')[]
  run(query: string, hits: StageHit[], ctx: SearchContext): Promise<Map<string, number>>
}

export type SearchPlugin = ChannelPlugin | FusionPlugin | StagePlugin
