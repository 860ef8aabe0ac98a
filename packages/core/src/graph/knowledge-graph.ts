import { MultiDirectedGraph } from 'graphology'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import type { Relationship } from '../model/relationship.js'

const PAGE = 2000
/** Observations kept per node for community summaries (the first ones seen). */
const OBSERVATIONS_PER_NODE = 3
/** Descriptions and observations are cut to this many characters: summaries only need their start. */
const TEXT_CAP = 300

/** What the graph keeps of an entity: enough to rank and summarise communities, not the record. */
export interface KnowledgeNode {
  name: string
  labels: readonly string[]
  description: string | null
  /** False for a node only known as the end of an edge (its entity record not seen yet). */
  present: boolean
  observations: { id: string; text: string }[]
}

/** What the graph keeps of a relationship. The edge key is the relationship uuid. */
export interface KnowledgeEdge {
  predicate: string
  description: string | null
  /** `properties.weight` when it is a positive number, else 1. */
  weight: number
}

export type KnowledgeMultiGraph = MultiDirectedGraph<KnowledgeNode, KnowledgeEdge>

/** A relationship that stopped being true (deprecated, or `properties.invalid_at` set) has no edge. */
function superseded(r: Relationship): boolean {
  const invalidAt = r.properties.invalid_at
  return r.deprecated || (invalidAt !== undefined && invalidAt !== null && invalidAt !== false)
}

function edgeWeight(r: Relationship): number {
  const w = r.properties.weight
  return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : 1
}

const cap = (text: string | null): string | null =>
  text === null ? null : text.length > TEXT_CAP ? `${text.slice(0, TEXT_CAP - 1)}…` : text

const placeholder = (): KnowledgeNode => ({
  name: '',
  labels: [],
  description: null,
  present: false,
  observations: [],
})

/**
 * One brain's entity graph as a graphology `MultiDirectedGraph` (DESIGN.md section 4, "Graph"): a node
 * per entity (events included: they are what links an actor to what it acted on), an edge per live
 * relationship keyed by its uuid, so parallel relationships between two entities stay distinct. Built
 * from the adapter and kept current from committed batches; `changes` counts the writes that alter
 * communities (edges added, removed or re-weighted; nodes added, removed or renamed), so callers can
 * decide when a recomputation is worth it.
 */
export class KnowledgeGraph {
  readonly graph: KnowledgeMultiGraph = new MultiDirectedGraph({ allowSelfLoops: false })
  private changeCount = 0

  /** Writes that changed the topology or a node's text since the graph was created. */
  get changes(): number {
    return this.changeCount
  }

  /**
   * Reads every entity, relationship and entity observation of a store, page by page, letting other
   * work run between pages (a large brain takes seconds: DESIGN.md section 8 measured ~8 s for 100k
   * nodes / 500k edges).
   */
  static async build(store: BrainStore): Promise<KnowledgeGraph> {
    const kg = new KnowledgeGraph()
    for (let after: string | null = null; ;) {
      const page = await store.scanEntities(after, PAGE)
      for (const e of page) kg.putEntity(e)
      if (page.length < PAGE) break
      after = page[page.length - 1]!.uuid
      await yieldToEventLoop()
    }
    for (let after: string | null = null; ;) {
      const page = await store.scanRelationships(after, PAGE)
      for (const r of page) kg.putRelationship(r)
      if (page.length < PAGE) break
      after = page[page.length - 1]!.uuid
      await yieldToEventLoop()
    }
    for (let skip = 0; ; skip += PAGE) {
      const page = await store.listObservations({ limit: PAGE, skip })
      for (const o of page.items) kg.putObservation(o)
      if (page.items.length < PAGE) break
      await yieldToEventLoop()
    }
    return kg
  }

  /** Follows a committed batch, in the store's order: puts, then deletes. */
  apply(batch: WriteBatch): void {
    for (const e of batch.entities ?? []) this.putEntity(e)
    for (const r of batch.relationships ?? []) this.putRelationship(r)
    for (const o of batch.observations ?? []) this.putObservation(o)
    for (const uuid of batch.deleteRelationships ?? []) this.dropEdge(uuid)
    for (const uuid of batch.deleteEntities ?? []) {
      if (!this.graph.hasNode(uuid)) continue
      this.changeCount += 1 + this.graph.degree(uuid)
      this.graph.dropNode(uuid)
    }
  }

  private putEntity(e: Entity): void {
    const next = { name: e.name, labels: e.labels, description: cap(e.description), present: true }
    if (!this.graph.hasNode(e.uuid)) {
      this.graph.addNode(e.uuid, { ...next, observations: [] })
      this.changeCount++
      return
    }
    const node = this.graph.getNodeAttributes(e.uuid)
    if (
      !node.present ||
      node.name !== next.name ||
      node.description !== next.description ||
      node.labels.join('\u0000') !== next.labels.join('\u0000')
    )
      this.changeCount++
    Object.assign(node, next)
  }

  private putRelationship(r: Relationship): void {
    const g = this.graph
    if (superseded(r) || r.subjectUuid === r.objectUuid) {
      this.dropEdge(r.uuid)
      return
    }
    const attributes: KnowledgeEdge = {
      predicate: r.name,
      description: cap(r.description),
      weight: edgeWeight(r),
    }
    if (g.hasEdge(r.uuid)) {
      if (g.source(r.uuid) === r.subjectUuid && g.target(r.uuid) === r.objectUuid) {
        if (g.getEdgeAttribute(r.uuid, 'weight') !== attributes.weight) this.changeCount++
        g.replaceEdgeAttributes(r.uuid, attributes)
        return
      }
      g.dropEdge(r.uuid)
    }
    if (!g.hasNode(r.subjectUuid)) g.addNode(r.subjectUuid, placeholder())
    if (!g.hasNode(r.objectUuid)) g.addNode(r.objectUuid, placeholder())
    g.addEdgeWithKey(r.uuid, r.subjectUuid, r.objectUuid, attributes)
    this.changeCount++
  }

  /** Keeps the first few observations of an entity (observations of passages are not graph facts). */
  private putObservation(o: Observation): void {
    if (!this.graph.hasNode(o.resourceId)) return
    const list = this.graph.getNodeAttribute(o.resourceId, 'observations')
    const at = list.findIndex((x) => x.id === o.id)
    const text = cap(o.text)!
    if (at >= 0) list[at] = { id: o.id, text }
    else if (list.length < OBSERVATIONS_PER_NODE) list.push({ id: o.id, text })
  }

  private dropEdge(uuid: string): void {
    if (!this.graph.hasEdge(uuid)) return
    this.graph.dropEdge(uuid)
    this.changeCount++
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
