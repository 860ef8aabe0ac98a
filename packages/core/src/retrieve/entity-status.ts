import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import { predicateName, type Relationship } from '../model/relationship.js'
import { observationsOfResources } from '../records/entity-observations.js'
import { NeighborsOf } from './neighbors-of.js'
import { resolveTarget, termCoverage } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'

export interface EntityStatus {
  exists: boolean
  /** Whether `relationships` is non-empty (of the asked relationship types, when some were asked). */
  hasRelationships: boolean
  node: Entity | null
  observations: Observation[]
  /**
   * Live relationships of the node with the entity at their other end, newest first; only those of
   * the asked relationship types, when some were asked.
   */
  relationships: [Relationship, Entity][]
}

/** `types` split by what each names: entity labels (upper-cased) and relationship names (normalised). */
interface StatusTypes {
  labels: Set<string>
  relationships: Set<string>
}

const MAX_RELATIONSHIPS = 1000
const MAX_OBSERVATIONS = 100
/** Source passages whose observations are searched for the entity's name. */
const MAX_SOURCE_PASSAGES = 20

/**
 * `GET /retrieve/entity/status`: whether `target` resolves (see `resolveTarget`) to an entity, its live
 * relationships and its observations. `types` (case-insensitive) may name entity labels and
 * relationship types (CONTRACT.md section 6 names neither, and clients send both):
 *
 * - a value that is a label of some entity of the brain is an entity label: the entity must carry one
 *   of them, else `exists: false`;
 * - any other value is a relationship type (after `predicateName`, so `works at` is `WORKS_AT`): it
 *   filters `relationships` and `hasRelationships` and never decides existence, since "does Alice
 *   have a FOUNDED relationship" must not answer "there is no Alice".
 *
 * Telling them apart reads the brain's distinct labels (an index scan: about 35 ms for 200,000 label
 * rows on SQLite), not its relationship names, which have no index (150 to 350 ms for 100,000
 * relationships), and only when `types` is given.
 *
 * An unknown target is an answer, not an error: `exists: false`.
 *
 * Observations are those about the node (`resource_id` = its uuid) plus those of the passages it was
 * extracted from that name it (every term of its name or an alias). The original looked only at the
 * first, usually empty since observations attach to passages, and when no entity matched `types` it
 * still returned the last one it examined (original-notes.md section A.7); here a label miss is
 * `exists: false`.
 */
export async function entityStatus(
  deps: RetrieveDeps,
  target: string,
  types: string[] = [],
): Promise<EntityStatus> {
  const wanted = await splitTypes(deps, types)
  const node = await resolveTarget(deps, target, {
    accept: (e) =>
      wanted.labels.size === 0 || e.labels.some((l) => wanted.labels.has(l.toUpperCase())),
  })
  if (node === null) {
    return {
      exists: false,
      hasRelationships: false,
      node: null,
      observations: [],
      relationships: [],
    }
  }
  const graph = new NeighborsOf(deps.store)
  graph.remember([node])
  const [all, observations] = await Promise.all([graph.of(node.uuid), observationsOf(deps, node)])
  const edges =
    wanted.relationships.size === 0
      ? all
      : all.filter((e) => wanted.relationships.has(predicateName(e.relationship.name)))
  return {
    exists: true,
    hasRelationships: edges.length > 0,
    node,
    observations,
    relationships: edges
      .slice(0, MAX_RELATIONSHIPS)
      .map((e): [Relationship, Entity] => [e.relationship, e.node]),
  }
}

/** Which of `types` are labels of the brain's entities; the others are relationship types. */
async function splitTypes(deps: RetrieveDeps, types: string[]): Promise<StatusTypes> {
  const out: StatusTypes = { labels: new Set(), relationships: new Set() }
  const asked = types.map((t) => t.trim()).filter((t) => t.length > 0)
  if (asked.length === 0) return out
  const labels = new Set((await deps.store.entities.labels()).map((l) => l.toUpperCase()))
  for (const type of asked) {
    const label = type.toUpperCase()
    if (labels.has(label)) out.labels.add(label)
    else out.relationships.add(predicateName(type))
  }
  return out
}

async function observationsOf(deps: RetrieveDeps, node: Entity): Promise<Observation[]> {
  const own = (await observationsOfResources(deps.store, [node.uuid], MAX_OBSERVATIONS))[0]!
  if (own.length >= MAX_OBSERVATIONS) return own
  const names = [node.name, ...node.aliases]
  const seen = new Set(own.map((o) => o.id))
  const out = [...own]
  // The source passages' observations in one store call, taken in the passages' order.
  const passages = node.sourcePassageIds.slice(0, MAX_SOURCE_PASSAGES)
  for (const page of await observationsOfResources(deps.store, passages, MAX_OBSERVATIONS)) {
    if (out.length >= MAX_OBSERVATIONS) break
    for (const o of page) {
      if (seen.has(o.id) || !names.some((n) => termCoverage(n, o.text) === 1)) continue
      seen.add(o.id)
      out.push(o)
    }
  }
  return out.slice(0, MAX_OBSERVATIONS)
}
