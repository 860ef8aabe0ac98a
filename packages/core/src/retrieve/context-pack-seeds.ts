import type { Candidate } from '../contracts/search-plugins.js'
import type { GraphIndex } from '../indexes/graph/graph-index.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** Candidates read from each channel (the original: top 25 nodes and 25 relationships per query). */
export const SEEDS_PER_CHANNEL = 25
/** Seed nodes kept, strongest first. */
export const MAX_SEEDS = 60
/** A node found through a passage that cites it is a slightly weaker seed than a direct hit. */
const PASSAGE_SEED_FACTOR = 0.8

export interface ContextSeeds {
  /** Seed node -> weight in (0, 1], strongest first. */
  nodes: Map<number, number>
  /**
   * Passages for the text, best first (the search pipeline's passage candidates at `candidateDepth`),
   * with the fused score: what the pack's passage walk re-ranks, as the graph stage of a search does.
   */
  passages: Candidate[]
}

/** Scores over the best one, so every channel's top hit weighs 1. */
function normalised(hits: Candidate[]): Candidate[] {
  const top = hits[0]?.score ?? 0
  return top <= 0 ? [] : hits.map((h) => ({ id: h.id, score: h.score / top }))
}

/**
 * Seeds of a context pack from three channels: entities (BM25 over names, aliases and descriptions,
 * plus entity-vector cosine when the brain has vectors), events (BM25 over event nodes) and passages
 * (the search pipeline's passage candidates, fused by the default fusion; the entities, events and relationships that cite a hit passage become
 * seeds too). A node's weight is its best normalised score over the channels.
 */
export async function contextSeeds(
  deps: RetrieveDeps,
  graph: GraphIndex,
  text: string,
  depths: {
    /** Passages whose entities, events and relationships become seeds. */
    seeds: number
    /** Passage candidates asked of the search pipeline (as a search for the same number of hits). */
    candidates: number
  },
): Promise<ContextSeeds> {
  const weights = new Map<number, number>()
  const offer = (uuid: string, weight: number) => {
    const n = graph.node(uuid)
    if (n !== undefined && weight > 0 && weight > (weights.get(n) ?? 0)) weights.set(n, weight)
  }
  for (const hit of normalised(deps.indexes.entities.search(text, SEEDS_PER_CHANNEL)))
    offer(hit.id, hit.score)
  for (const hit of normalised(deps.indexes.events.search(text, SEEDS_PER_CHANNEL)))
    offer(hit.id, hit.score)

  if (deps.embed !== null && deps.vectors !== null) {
    const query = await deps.embed(text)
    for (const hit of await deps.vectors.search('entities', query, SEEDS_PER_CHANNEL))
      offer(hit.id, Math.max(0, hit.score))
  }
  const passages = (await deps.candidates('passages', text, depths.candidates)).slice(
    0,
    depths.candidates,
  )
  for (const hit of normalised(passages.slice(0, depths.seeds))) {
    const cited = graph.fromPassage(hit.id)
    for (const n of cited.nodes) offer(graph.uuid[n]!, PASSAGE_SEED_FACTOR * hit.score)
    for (const e of cited.edges) {
      offer(graph.uuid[graph.subject[e]!]!, PASSAGE_SEED_FACTOR * hit.score)
      offer(graph.uuid[graph.object[e]!]!, PASSAGE_SEED_FACTOR * hit.score)
    }
  }
  const nodes = new Map([...weights].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_SEEDS))
  return { nodes, passages }
}
