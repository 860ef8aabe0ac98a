import type { Triple } from '../contracts/storage-adapter.js'
import { isEvent, type Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import type { Passage } from '../model/passage.js'
import { observationsOfResources } from '../records/entity-observations.js'
import { NeighborsOf, type NeighborEdge } from './neighbors-of.js'
import { termCoverage, TARGET_MATCH_THRESHOLD } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'

export interface RetrieveRootResult {
  data: Passage[]
  observations: Observation[]
  relationships: Triple[]
}

/** Candidates each ranked list contributes before fusion. */
const DEPTH = 50
/** Entity candidates read per passage when looking for the entities it mentions. */
const MENTION_CANDIDATES = 30
/** Entities matching the text itself that are added as seeds (for brains without passages). */
const QUERY_SEEDS = 5
const EDGES_PER_ENTITY = 20
const OBSERVATIONS_PER_RESOURCE = 20
/** Mentioned entities whose observations are read. */
const MAX_OBSERVED_ENTITIES = 50
/** Characters of a passage used to look up the entities it mentions. */
const MENTION_TEXT = 5000

/**
 * `GET /retrieve/` (CONTRACT.md section 6): the `limit` best passages for `text` (the search
 * pipeline's passage candidates: BM25, fused by RRF with dense passage hits when the brain has vectors,
 * unless the engine configures other channels), their observations (see `observationsOf`), and
 * up to `limit` relationships around the entities they mention.
 *
 * An entity is "mentioned" by a passage when it was extracted from it (its provenance lists the
 * passage); candidates come from the entities index queried with the passage text. Entities of the
 * text itself (every analysed term shared, at least half) are added after them, so a brain written only
 * through `/model` or structured ingestion still answers. Relationships to an event bring the event's
 * other legs (same flow key). Triples whose subject or object carries one of `preferredLabels`
 * (case-insensitive) come first; otherwise the order is that of the entities they were reached from.
 *
 * The original treated `preferred_entities` as a filter, ran keyword search on a collection named "*"
 * and read relationships from a vector store nothing wrote to (original-notes.md section A.7).
 */
export async function retrieveRoot(
  deps: RetrieveDeps,
  text: string,
  preferredLabels: string[],
  limit: number,
): Promise<RetrieveRootResult> {
  const data = await rankPassages(deps, text, limit)
  const mentioned = await mentionedEntities(deps, data, text)
  const observations = await observationsOf(deps, data, mentioned)
  const preferred = new Set(preferredLabels.map((l) => l.trim().toUpperCase()).filter(Boolean))
  const relationships = await triplesAround(deps, mentioned)
  const isPreferred = (t: Triple) =>
    [...t.subject.labels, ...t.object.labels].some((l) => preferred.has(l.toUpperCase()))
  const ordered = relationships
    .map((triple, order) => ({ triple, order, first: preferred.size > 0 && isPreferred(triple) }))
    .sort((a, b) => Number(b.first) - Number(a.first) || a.order - b.order)
    .map((x) => x.triple)
  return { data, observations, relationships: ordered.slice(0, limit) }
}

/**
 * Observations of the returned passages: those attached to a passage, then those attached to an
 * entity it mentions that cite one of the passages in `metadata.passage_ids` (where the extractor puts
 * them).
 */
async function observationsOf(
  deps: RetrieveDeps,
  passages: Passage[],
  mentioned: Entity[],
): Promise<Observation[]> {
  const passageIds = new Set(passages.map((p) => p.id))
  const out = new Map<string, Observation>()
  const read = (resourceIds: string[]) =>
    observationsOfResources(deps.store, resourceIds, OBSERVATIONS_PER_RESOURCE)
  for (const page of await read(passages.map((p) => p.id))) {
    for (const o of page) out.set(o.id, o)
  }
  const cited = (o: Observation) => {
    const ids = o.metadata.passage_ids
    return Array.isArray(ids) && ids.some((id) => typeof id === 'string' && passageIds.has(id))
  }
  const entities = mentioned.slice(0, MAX_OBSERVED_ENTITIES)
  for (const page of await read(entities.map((e) => e.uuid))) {
    for (const o of page) if (cited(o) && !out.has(o.id)) out.set(o.id, o)
  }
  return [...out.values()]
}

/** The search pipeline's passage candidates (by default BM25 and dense fused by RRF), `limit` of them. */
async function rankPassages(deps: RetrieveDeps, text: string, limit: number): Promise<Passage[]> {
  const ids = (await deps.candidates('passages', text, DEPTH)).slice(0, limit).map((c) => c.id)
  const byId = new Map((await deps.store.passages.get(ids)).map((p) => [p.id, p]))
  return ids.flatMap((id) => {
    const p = byId.get(id)
    return p === undefined ? [] : [p]
  })
}

async function mentionedEntities(
  deps: RetrieveDeps,
  passages: Passage[],
  text: string,
): Promise<Entity[]> {
  const out = new Map<string, Entity>()
  for (const passage of passages) {
    const hits = deps.indexes.entities.search(
      passage.text.slice(0, MENTION_TEXT),
      MENTION_CANDIDATES,
    )
    const entities = await deps.store.entities.get(hits.map((h) => h.id))
    for (const e of entities) {
      if (e.sourcePassageIds.includes(passage.id) && !out.has(e.uuid)) out.set(e.uuid, e)
    }
  }
  const seeds = deps.indexes.entities.search(text, QUERY_SEEDS)
  for (const e of await deps.store.entities.get(seeds.map((s) => s.id))) {
    const haystack = [e.name, ...e.aliases, e.description ?? ''].join(' ')
    if (!out.has(e.uuid) && termCoverage(text, haystack) >= TARGET_MATCH_THRESHOLD) {
      out.set(e.uuid, e)
    }
  }
  return [...out.values()]
}

async function triplesAround(deps: RetrieveDeps, entities: Entity[]): Promise<Triple[]> {
  const graph = new NeighborsOf(deps.store)
  graph.remember(entities)
  const seen = new Set<string>()
  const out: Triple[] = []
  const push = (from: Entity, edge: NeighborEdge) => {
    if (seen.has(edge.relationship.uuid)) return
    seen.add(edge.relationship.uuid)
    out.push(
      edge.direction === 'out'
        ? { subject: from, predicate: edge.relationship, object: edge.node }
        : { subject: edge.node, predicate: edge.relationship, object: from },
    )
  }
  for (const entity of entities) {
    for (const edge of (await graph.of(entity.uuid)).slice(0, EDGES_PER_ENTITY)) {
      push(entity, edge)
      if (!isEvent(edge.node) || isEvent(entity)) continue
      const flow = edge.relationship.flowKey
      for (const leg of (await graph.of(edge.node.uuid)).slice(0, EDGES_PER_ENTITY)) {
        if (leg.node.uuid !== entity.uuid && (flow === null || leg.relationship.flowKey === flow)) {
          push(edge.node, leg)
        }
      }
    }
  }
  return out
}
