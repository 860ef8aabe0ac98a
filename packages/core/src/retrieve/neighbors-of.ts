import type { BrainStore } from '../contracts/storage-adapter.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'

/** One edge seen from a node: the relationship, the node at its other end, and which way it points. */
export interface NeighborEdge {
  relationship: Relationship
  node: Entity
  /** `out` when the node we stand on is the subject, `in` when it is the object. */
  direction: 'out' | 'in'
}

/** When an edge or its far node happened (or was last updated), for ordering by recency. */
export function edgeTime(edge: NeighborEdge): string {
  return edge.relationship.happenedAt ?? edge.node.happenedAt ?? edge.relationship.lastUpdated
}

/** Newest first, then by relationship uuid: the stable order every fan-out cap cuts in. */
export function byRecency(a: NeighborEdge, b: NeighborEdge): number {
  const ta = edgeTime(a)
  const tb = edgeTime(b)
  if (ta !== tb) return ta < tb ? 1 : -1
  return a.relationship.uuid < b.relationship.uuid
    ? -1
    : a.relationship.uuid > b.relationship.uuid
      ? 1
      : 0
}

/**
 * Reads the graph around nodes for the traversal operations, memoising per request so a node reached
 * twice costs one store call. Deprecated relationships and self-loops are skipped; edges whose far
 * node is missing (a dangling write) are skipped rather than failing the request.
 */
export class NeighborsOf {
  private readonly edges = new Map<string, Promise<NeighborEdge[]>>()
  private readonly entities = new Map<string, Entity>()

  /** `includeDeprecated`: keep deprecated relationships too (an explicit walk may ask for them). */
  constructor(
    private readonly store: BrainStore,
    private readonly options: { includeDeprecated?: boolean } = {},
  ) {}

  /** Remembers entities already loaded (so they are not fetched again). */
  remember(entities: Entity[]): void {
    for (const e of entities) this.entities.set(e.uuid, e)
  }

  /** An entity loaded so far (the main node, or any node at the end of an edge read). */
  entity(uuid: string): Entity | undefined {
    return this.entities.get(uuid)
  }

  /** Every live edge of `uuid`, newest first. */
  of(uuid: string): Promise<NeighborEdge[]> {
    let pending = this.edges.get(uuid)
    if (pending === undefined) {
      pending = this.load(uuid)
      this.edges.set(uuid, pending)
    }
    return pending
  }

  /** Distinct neighbour uuids of `uuid` (open neighbourhood). */
  async ids(uuid: string): Promise<Set<string>> {
    return new Set((await this.of(uuid)).map((e) => e.node.uuid))
  }

  private async load(uuid: string): Promise<NeighborEdge[]> {
    const relationships = (await this.store.relationships.of(uuid)).filter(
      (r) =>
        (this.options.includeDeprecated === true || !r.deprecated) &&
        r.subjectUuid !== r.objectUuid,
    )
    const missing = [
      ...new Set(relationships.map((r) => (r.subjectUuid === uuid ? r.objectUuid : r.subjectUuid))),
    ].filter((id) => !this.entities.has(id))
    if (missing.length > 0) this.remember(await this.store.entities.get(missing))
    const out: NeighborEdge[] = []
    for (const relationship of relationships) {
      const outgoing = relationship.subjectUuid === uuid
      const node = this.entities.get(outgoing ? relationship.objectUuid : relationship.subjectUuid)
      if (node !== undefined) out.push({ relationship, node, direction: outgoing ? 'out' : 'in' })
    }
    return out.sort(byRecency)
  }
}
