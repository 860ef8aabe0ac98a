import { analyze } from '../analysis/analyze.js'
import { notFound } from '../errors.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { NeighborsOf } from './neighbors-of.js'
import { cosine } from '../vectors/cosine.js'
import {
  denseMatches,
  entityText,
  relationshipText,
  structuralSimilarity,
} from './neighbors-scoring.js'
import { termCoverage } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** One ranked neighbour (CONTRACT.md section 6, Neighbors response). */
export interface NeighborResult {
  neighbor: Entity
  /**
   * The shared neighbour that best explains the link: of the nodes adjacent to both the main node and
   * this neighbour, the most specific one (fewest relationships, as Adamic & Adar weight shared
   * neighbours). For a direct neighbour that shares no other node with the main node, the main node
   * itself: all the two have in common is their direct edge. Never null (docs/wire-format.md).
   */
  mostCommon: Entity
  /** The direct edge to the main node, or else the edge from this neighbour to `mostCommon`. */
  relationship: Relationship
  /** In [0, 1]; see {@link rankNeighbors}. */
  similarityScore: number
}

export interface NeighborsResult {
  mainNode: Entity
  /** Candidates that passed the filters, before the cut to `limit`. */
  count: number
  neighbors: NeighborResult[]
}

export interface RankNeighborsOptions {
  limit: number
  /** Texts the neighbours should match; each filters (a candidate must match one) and re-ranks. */
  phrases?: string[]
  /** Weight of the phrase match in the final score (the rest is the similarity to the main node). */
  phraseWeight?: number
}

/** Neighbours read from the main node, newest edges first (fan-out caps keep hubs cheap). */
const FIRST_HOP_CAP = 100
const SECOND_HOP_CAP = 50
const MAX_CANDIDATES = 500
/** Share of the base score taken by embedding cosine when both nodes have vectors. */
const DENSE_WEIGHT = 0.5
/** Cosine from which a phrase counts as matched by embedding (the original's look_for threshold). */
const PHRASE_MIN_COSINE = 0.5

interface Candidate {
  node: Entity
  direct: Relationship | null
}

/**
 * Neighbours of `main`: nodes one hop away and nodes two hops away through a shared neighbour (the
 * "siblings" the original looked for, original-notes.md section A.7), each with a real similarity to
 * the main node, which the original always reported as 0.0:
 *
 * - structure: SCAN structural similarity of the closed neighbourhoods (see `structuralSimilarity`);
 * - with vectors, blended half and half with the cosine of the two nodes' embeddings (clipped at 0).
 *   Without vectors the score is the structural part alone.
 *
 * With `phrases`, a candidate must match at least one phrase (its analysed terms in the candidate's
 * name, aliases, labels, description or connecting predicate; or embedding cosine >= 0.5), and its
 * score becomes (1 - w) * similarity + w * best phrase match (CombMAX over phrases, Fox & Shaw,
 * "Combination of multiple searches", TREC-2 1994). Phrases with no searchable term are ignored.
 * Ties are broken by uuid.
 */
export async function rankNeighbors(
  deps: RetrieveDeps,
  main: Entity,
  options: RankNeighborsOptions,
): Promise<NeighborsResult> {
  const graph = new NeighborsOf(deps.store)
  graph.remember([main])
  const candidates = new Map<string, Candidate>()
  const add = (node: Entity, direct: Relationship | null) => {
    if (node.uuid === main.uuid) return
    const seen = candidates.get(node.uuid)
    if (seen !== undefined) {
      if (seen.direct === null && direct !== null) seen.direct = direct
    } else if (candidates.size < MAX_CANDIDATES) {
      candidates.set(node.uuid, { node, direct })
    }
  }
  const firstHop = (await graph.of(main.uuid)).slice(0, FIRST_HOP_CAP)
  for (const edge of firstHop) add(edge.node, edge.relationship)
  for (const edge of firstHop) {
    for (const far of (await graph.of(edge.node.uuid)).slice(0, SECOND_HOP_CAP)) {
      add(far.node, null)
    }
  }

  const mainNeighbors = await graph.ids(main.uuid)
  const uuids = [...candidates.keys()]
  const phrases = (options.phrases ?? []).filter(
    (p) => p.trim() !== '' && (analyze(p).length > 0 || deps.embed !== null),
  )
  const phraseDense = phrases.length > 0 ? await denseMatches(deps, phrases, uuids) : null
  const vectors =
    deps.vectors === null || uuids.length === 0
      ? new Map<string, Float32Array>()
      : await deps.vectors.get('entities', [main.uuid, ...uuids])
  const mainVector = vectors.get(main.uuid)

  const weight = options.phraseWeight ?? 0.5
  const ranked: NeighborResult[] = []
  for (const { node, direct } of candidates.values()) {
    const neighborIds = await graph.ids(node.uuid)
    const structural = structuralSimilarity(main.uuid, mainNeighbors, node.uuid, neighborIds)
    const vector = vectors.get(node.uuid)
    const base =
      mainVector !== undefined && vector !== undefined
        ? DENSE_WEIGHT * Math.max(0, cosine(mainVector, vector)) + (1 - DENSE_WEIGHT) * structural
        : structural

    const shared = await mostSpecificShared(graph, mainNeighbors, neighborIds)
    const relationship =
      direct ?? (await graph.of(node.uuid)).find((e) => e.node.uuid === shared?.uuid)?.relationship
    if (relationship === undefined) continue

    let score = base
    if (phrases.length > 0) {
      const text = `${entityText(node)} ${relationshipText(relationship)}`
      let best = 0
      let matched = false
      phrases.forEach((phrase, i) => {
        const lexical = termCoverage(phrase, text)
        const dense = phraseDense?.[i]?.get(node.uuid) ?? 0
        if (lexical > 0 || dense >= PHRASE_MIN_COSINE) matched = true
        best = Math.max(best, lexical, dense)
      })
      if (!matched) continue
      score = (1 - weight) * base + weight * best
    }
    ranked.push({
      neighbor: node,
      mostCommon: shared ?? main,
      relationship,
      similarityScore: Math.min(1, Math.max(0, score)),
    })
  }
  ranked.sort(
    (a, b) =>
      b.similarityScore - a.similarityScore ||
      (a.neighbor.uuid < b.neighbor.uuid ? -1 : a.neighbor.uuid > b.neighbor.uuid ? 1 : 0),
  )
  return { mainNode: main, count: ranked.length, neighbors: ranked.slice(0, options.limit) }
}

/** The shared neighbour with the fewest relationships (ties by uuid), or null when none is shared. */
async function mostSpecificShared(
  graph: NeighborsOf,
  a: ReadonlySet<string>,
  b: ReadonlySet<string>,
): Promise<Entity | null> {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let best: { entity: Entity; degree: number } | null = null
  for (const uuid of small) {
    if (!large.has(uuid)) continue
    const degree = (await graph.ids(uuid)).size
    const entity = graph.entity(uuid)
    if (entity === undefined) continue
    if (
      best === null ||
      degree < best.degree ||
      (degree === best.degree && uuid < best.entity.uuid)
    ) {
      best = { entity, degree }
    }
  }
  return best?.entity ?? null
}

/** `GET /retrieve/entities/neighbors`: neighbours of the entity `uuid`; 404 when it does not exist. */
export async function neighborsByUuid(
  deps: RetrieveDeps,
  uuid: string,
  options: { limit: number; lookFor?: string | undefined },
): Promise<NeighborsResult> {
  const [main] = await deps.store.entities.get([uuid])
  if (main === undefined) throw notFound('Entity', uuid)
  return rankNeighbors(deps, main, {
    limit: options.limit,
    ...(options.lookFor !== undefined && options.lookFor.trim() !== ''
      ? { phrases: [options.lookFor] }
      : {}),
  })
}
