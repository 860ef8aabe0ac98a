import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import type { Relationship } from '../model/relationship.js'
import { NeighborsOf } from './neighbors-of.js'
import { resolveTarget, termCoverage } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'

export interface EntityStatus {
  exists: boolean
  hasRelationships: boolean
  node: Entity | null
  observations: Observation[]
  /** Live relationships of the node with the entity at their other end, newest first. */
  relationships: [Relationship, Entity][]
}

const MAX_RELATIONSHIPS = 1000
const MAX_OBSERVATIONS = 100
/** Source passages whose observations are searched for the entity's name. */
const MAX_SOURCE_PASSAGES = 20

/**
 * `GET /retrieve/entity/status`: whether `target` resolves (see `resolveTarget`) to an entity carrying
 * any of `types` (case-insensitive; all entities when empty). An unknown target is an answer, not an
 * error: `exists: false`.
 *
 * Observations are those about the node (`resource_id` = its uuid) plus those of the passages it was
 * extracted from that name it (every term of its name or an alias). The original looked only at the
 * first, usually empty since observations attach to passages, and when no entity matched `types` it
 * still returned the last one it examined (original-notes.md section A.7); here a type miss is
 * `exists: false`.
 */
export async function entityStatus(
  deps: RetrieveDeps,
  target: string,
  types: string[] = [],
): Promise<EntityStatus> {
  const wanted = new Set(types.map((t) => t.toUpperCase()))
  const node = await resolveTarget(deps, target, {
    accept: (e) => wanted.size === 0 || e.labels.some((l) => wanted.has(l.toUpperCase())),
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
  const [edges, observations] = await Promise.all([graph.of(node.uuid), observationsOf(deps, node)])
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

async function observationsOf(deps: RetrieveDeps, node: Entity): Promise<Observation[]> {
  const own = (
    await deps.store.observations.list({ resourceId: node.uuid, limit: MAX_OBSERVATIONS, skip: 0 })
  ).items
  const names = [node.name, ...node.aliases]
  const seen = new Set(own.map((o) => o.id))
  const out = [...own]
  for (const passageId of node.sourcePassageIds.slice(0, MAX_SOURCE_PASSAGES)) {
    if (out.length >= MAX_OBSERVATIONS) break
    const page = await deps.store.observations.list({
      resourceId: passageId,
      limit: MAX_OBSERVATIONS,
      skip: 0,
    })
    for (const o of page.items) {
      if (seen.has(o.id) || !names.some((n) => termCoverage(n, o.text) === 1)) continue
      seen.add(o.id)
      out.push(o)
    }
  }
  return out.slice(0, MAX_OBSERVATIONS)
}
