import type { BrainStore, WriteBatch } from '../../contracts/storage-adapter.js'
import type { Polarity } from '../../model/common.js'
import { EVENT_LABEL, VALUE_LABELS, type Entity } from '../../model/entity.js'
import type { Observation } from '../../model/observation.js'
import type { Relationship } from '../../model/relationship.js'
import { INDEX_BYTES } from '../index-bytes.js'
import { visible, windowOf, type TimeFilter, type Window } from '../../time/validity.js'
import { runWhole } from '../sliced-work.js'
import { deriveGraphIndex, NO_PASSAGES, type GraphIndexDerived } from './graph-index-derived.js'

const PAGE = 2000
/** Observations kept per node for community summaries (the first ones seen). */
const OBSERVATIONS_PER_NODE = 3
/** Descriptions and observations are cut to this many characters: summaries only need their start. */
const TEXT_CAP = 300

const cap = (text: string | null): string | null =>
  text === null ? null : text.length > TEXT_CAP ? `${text.slice(0, TEXT_CAP - 1)}…` : text

/** Time views kept per graph (`GraphIndex.at`). */
const MAX_VIEWS = 4

/** The window of a record with none: always valid, known since ever. */
const ALWAYS: Window = Object.freeze({
  validFrom: Number.NEGATIVE_INFINITY,
  validTo: Number.POSITIVE_INFINITY,
  created: Number.NEGATIVE_INFINITY,
  expired: Number.POSITIVE_INFINITY,
})

/** `ALWAYS` itself for an unbounded window, so records without time share one object. */
function sameWindow(w: Window): Window {
  return w.validFrom === ALWAYS.validFrom &&
    w.validTo === ALWAYS.validTo &&
    w.created === ALWAYS.created &&
    w.expired === ALWAYS.expired
    ? ALWAYS
    : w
}

/** Milliseconds since the epoch of an ISO date, NaN when absent or unparsable. */
export function timeOf(iso: string | null | undefined): number {
  return iso === null || iso === undefined ? Number.NaN : Date.parse(iso)
}

/** Strings that can name what kind of event a node is (its behaviour): properties first, then the name. */
function eventKinds(e: Entity): string[] {
  const p = e.properties
  const kinds = [p.behavior, p.behaviour, p.action, p.verb, p.type, e.name]
  return [
    ...kinds.filter((k): k is string => typeof k === 'string' && k.length > 0),
    ...e.labels.filter((l) => l !== EVENT_LABEL),
  ]
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback
}

/** `properties.weight` when it is a positive number, else 1 (the edge weight communities use). */
function linkWeightOf(r: Relationship): number {
  const w = r.properties.weight
  return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : 1
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * What a {@link GraphIndex} holds, but what it derives from it (lookups by uuid, key or name; `labels`
 * and `predicate` from their interned ids; `isEvent` from the labels; `valid` from the windows) and its
 * caches (time views, the change count): what a snapshot stores (`graph-snapshot.ts`). Field by field
 * as documented on the class.
 */
export interface GraphIndexState {
  uuid: string[]
  name: string[]
  labelSetId: number[]
  labelSets: (readonly string[])[]
  polarity: Polarity[]
  time: number[]
  description: (string | null)[]
  observations: { id: string; text: string }[][]
  observationNode: Map<string, number>
  present: boolean[]
  deleted: boolean[]
  kindSetId: number[]
  kindSets: (readonly string[])[]
  adjacency: number[][]
  loops: number[]
  nodePassages: number[][]
  nodeWindow: Window[]
  edgeUuid: string[]
  subject: number[]
  object: number[]
  predicateId: number[]
  predicates: string[]
  flowKey: (string | null)[]
  edgeTime: number[]
  weight: number[]
  linkWeight: number[]
  edgeDescription: (string | null)[]
  deprecated: boolean[]
  live: boolean[]
  edgeWindow: Window[]
  loopNode: Map<number, number>
  passageId: string[]
  passageEntities: number[][]
  passageNodes: Map<string, Set<number>>
  passageEdges: Map<string, Set<number>>
}

/** The one window object of every node and edge without time (a snapshot stores it as such). */
export const UNBOUNDED_WINDOW = ALWAYS

/**
 * The topology of one brain's graph in compact parallel arrays, for the traversal-heavy operations
 * (context packs, synergies, recommendations) that would otherwise make thousands of store calls per
 * request. Nodes and edges get dense numbers; full records stay in the store. Events are nodes with
 * the `EVENT` label whose legs share a flow key (DESIGN.md section 4, "Graph").
 *
 * Why not graphology (DESIGN.md sections 4 and 8 name it): DESIGN measured ~8 s and +160 MB for 100k
 * nodes / 500k edges there, every node and edge being an object with an attribute bag, and the walks
 * here need flow-key pairing and interned predicates it does not keep. These arrays hold the
 * MovieLens-small graph (112k nodes, 226k edges) in ~96 MB of heap, built from SQLite in ~2.3 s of
 * which ~1.0 s is reading the rows (measured on the 2-core benchmark machine).
 *
 * Adjacency lists hold live edges only; a node whose record is deleted stays numbered but `present`
 * turns false and traversals skip edges that reach it.
 */
export class GraphIndex {
  private readonly nodeOf = new Map<string, number>()
  readonly uuid: string[] = []
  readonly name: string[] = []
  readonly labels: (readonly string[])[] = []
  /** Interned label set per node (`labelSets[labelSetId[n]]` equals `labels[n]`). */
  readonly labelSetId: number[] = []
  readonly labelSets: (readonly string[])[] = []
  private readonly labelSetOf = new Map<string, number>()
  readonly polarity: Polarity[] = []
  /** `happenedAt` in ms (NaN when undated). */
  readonly time: number[] = []
  /** Description, cut to its start (community summaries only need that). */
  readonly description: (string | null)[] = []
  /** The first few observations of the node (community summaries). */
  readonly observations: { id: string; text: string }[][] = []
  /** The node of each observation kept in `observations`, to drop it when it is deleted. */
  private readonly observationNode = new Map<string, number>()
  /** The entity record exists (false for a node only seen as an edge end, or deleted). */
  readonly present: boolean[] = []
  /** The entity record was deleted (a node never seen as a record is a placeholder instead). */
  readonly deleted: boolean[] = []
  readonly isEvent: boolean[] = []
  /**
   * For events: strings naming the behaviour (properties, name, labels), for behaviour weights,
   * interned (`kindSets[kindSetId[n]]`) so per-request caches stay as small as the vocabulary.
   */
  readonly kindSetId: number[] = []
  readonly kindSets: (readonly string[])[] = []
  private readonly kindSetOf = new Map<string, number>()
  /** Live edge numbers per node, both directions. */
  readonly adjacency: number[][] = []

  private readonly edgeOf = new Map<string, number>()
  readonly edgeUuid: string[] = []
  readonly subject: number[] = []
  readonly object: number[] = []
  /** Predicate name per edge (UPPER_SNAKE). */
  readonly predicate: string[] = []
  /** Interned predicate number per edge (`predicates[predicateId[e]] === predicate[e]`). */
  readonly predicateId: number[] = []
  readonly predicates: string[] = []
  private readonly predicateOf = new Map<string, number>()
  readonly flowKey: (string | null)[] = []
  /** `happenedAt` in ms (NaN when undated). */
  readonly edgeTime: number[] = []
  /** `properties.weight`, else `amount`, else NaN. */
  readonly weight: number[] = []
  /** `properties.weight` when positive, else 1: the weight communities use. */
  readonly linkWeight: number[] = []
  /** Description, cut to its start (community summaries). */
  readonly edgeDescription: (string | null)[] = []
  /** False when superseded (deprecated or `invalid_at`). */
  readonly valid: boolean[] = []
  /** The relationship's own `deprecated` flag. */
  readonly deprecated: boolean[] = []
  /** Views `at` built since the last write, by filter (a time slider asks the same times again). */
  private readonly views = new Map<string, GraphIndex>()
  /** Each edge's validity window (docs/time.md), for `at`. */
  private readonly edgeWindow: Window[] = []
  /** Each node's window: events carry one; other nodes only `created` (-Infinity when unknown). */
  private readonly nodeWindow: Window[] = []
  readonly live: boolean[] = []

  /** Self-loops per node (kept out of `adjacency`, but the store counts them once). */
  private readonly loops: number[] = []
  /** The node of each self-loop edge. */
  private readonly loopNode = new Map<number, number>()
  private readonly passageNodes = new Map<string, Set<number>>()
  /** Passages numbered in order of first citation (`passageId[p]`), for walks over passages. */
  private readonly passageNo = new Map<string, number>()
  readonly passageId: string[] = []
  /** Entity nodes citing each passage (by passage number), both events and entities. */
  readonly passageEntities: number[][] = []
  /** Passages (by number) each node cites as its sources, as its record lists them. */
  readonly nodePassages: number[][] = []
  private readonly passageEdges = new Map<string, Set<number>>()
  /**
   * Passage ids each edge cites as its sources (`passageEdges` the other way round), sorted: what its
   * relationship record lists, as a set, so a context pack weighs facts by shared sources without
   * reading the records from the store (`edgeSources`).
   */
  readonly edgePassages: (readonly string[])[] = []
  private changeCount = 0
  private writeCount = 0

  /**
   * An empty graph, or one holding `state` (a snapshot's, `graph-snapshot.ts`), taken as it is (not
   * copied), with what it derives rebuilt (`derived`, when the caller computed it in slices with
   * `deriveGraphIndex`, else here in one go). `valid` is recomputed at `now`, as a build from the store
   * then would: a fact whose end passed since the snapshot is no longer valid. The time views and
   * the change count start empty, as a build's do.
   */
  constructor(state?: GraphIndexState, now = Date.now(), derived?: GraphIndexDerived) {
    if (state === undefined) return
    const d = derived ?? runWhole(deriveGraphIndex(state, now))
    this.uuid = state.uuid
    this.name = state.name
    this.labelSetId = state.labelSetId
    this.labelSets = state.labelSets
    this.labels = d.labels
    this.polarity = state.polarity
    this.time = state.time
    this.description = state.description
    this.observations = state.observations
    this.observationNode = state.observationNode
    this.present = state.present
    this.deleted = state.deleted
    this.isEvent = d.isEvent
    this.kindSetId = state.kindSetId
    this.kindSets = state.kindSets
    this.adjacency = state.adjacency
    this.loops = state.loops
    this.nodePassages = state.nodePassages
    this.nodeWindow = state.nodeWindow
    this.edgeUuid = state.edgeUuid
    this.subject = state.subject
    this.object = state.object
    this.predicateId = state.predicateId
    this.predicates = state.predicates
    this.predicate = d.predicate
    this.flowKey = state.flowKey
    this.edgeTime = state.edgeTime
    this.weight = state.weight
    this.linkWeight = state.linkWeight
    this.edgeDescription = state.edgeDescription
    this.deprecated = state.deprecated
    this.live = state.live
    this.edgeWindow = state.edgeWindow
    this.valid = d.valid
    this.loopNode = state.loopNode
    this.passageId = state.passageId
    this.passageEntities = state.passageEntities
    this.passageNodes = state.passageNodes
    this.passageEdges = state.passageEdges
    this.edgePassages = d.edgePassages
    this.nodeOf = d.nodeOf
    this.edgeOf = d.edgeOf
    this.passageNo = d.passageNo
    this.predicateOf = d.predicateOf
    this.labelSetOf = d.labelSetOf
    this.kindSetOf = d.kindSetOf
  }

  /** What a snapshot stores (`GraphIndexState`): this index's own arrays and maps, not copies. */
  toState(): GraphIndexState {
    return {
      uuid: this.uuid,
      name: this.name,
      labelSetId: this.labelSetId,
      labelSets: this.labelSets,
      polarity: this.polarity,
      time: this.time,
      description: this.description,
      observations: this.observations,
      observationNode: this.observationNode,
      present: this.present,
      deleted: this.deleted,
      kindSetId: this.kindSetId,
      kindSets: this.kindSets,
      adjacency: this.adjacency,
      loops: this.loops,
      nodePassages: this.nodePassages,
      nodeWindow: this.nodeWindow,
      edgeUuid: this.edgeUuid,
      subject: this.subject,
      object: this.object,
      predicateId: this.predicateId,
      predicates: this.predicates,
      flowKey: this.flowKey,
      edgeTime: this.edgeTime,
      weight: this.weight,
      linkWeight: this.linkWeight,
      edgeDescription: this.edgeDescription,
      deprecated: this.deprecated,
      live: this.live,
      edgeWindow: this.edgeWindow,
      loopNode: this.loopNode,
      passageId: this.passageId,
      passageEntities: this.passageEntities,
      passageNodes: this.passageNodes,
      passageEdges: this.passageEdges,
    }
  }

  /**
   * Writes that changed what communities depend on since the graph was created: edges added, removed
   * or re-weighted; nodes added, removed or renamed. Callers decide from it when recomputing is worth it.
   */
  get changes(): number {
    return this.changeCount
  }

  /**
   * Writes applied since the graph was created, whatever they changed (`changes` counts only those
   * communities depend on). A snapshot save encodes the graph in slices and stops when this moved
   * meanwhile (`saveGraphSnapshot`): every change to the state goes through `apply` (the put and
   * remove methods are private, called by `apply` and by `build` on a graph no one holds yet), so
   * counting there covers every writer, the snapshot's epoch bookkeeping or not.
   */
  get writes(): number {
    return this.writeCount
  }

  /**
   * Reads every entity, relationship and entity observation of a store, page by page, letting other
   * work run between pages (a large brain takes seconds).
   */
  static async build(store: BrainStore): Promise<GraphIndex> {
    const graph = new GraphIndex()
    for (let after: string | null = null; ;) {
      const page = await store.entities.scan(after, PAGE)
      for (const e of page) graph.putEntity(e)
      if (page.length < PAGE) break
      after = page[page.length - 1]!.uuid
      await yieldToEventLoop()
    }
    for (let after: string | null = null; ;) {
      const page = await store.relationships.scan(after, PAGE)
      for (const r of page) graph.putRelationship(r)
      if (page.length < PAGE) break
      after = page[page.length - 1]!.uuid
      await yieldToEventLoop()
    }
    for (let skip = 0; ; skip += PAGE) {
      const page = await store.observations.list({ limit: PAGE, skip })
      for (const o of page.items) graph.putObservation(o)
      if (page.items.length < PAGE) break
      await yieldToEventLoop()
    }
    return graph
  }

  /** Follows a committed batch (same order as the store: puts, then deletes). */
  apply(batch: WriteBatch): void {
    this.writeCount++
    this.views.clear()
    for (const e of batch.entities ?? []) this.putEntity(e)
    for (const r of batch.relationships ?? []) this.putRelationship(r)
    for (const o of batch.observations ?? []) this.putObservation(o)
    for (const uuid of batch.deleteRelationships ?? []) this.removeRelationship(uuid)
    for (const id of batch.deleteObservations ?? []) this.removeObservation(id)
    for (const uuid of batch.deleteEntities ?? []) {
      const n = this.nodeOf.get(uuid)
      if (n === undefined || this.deleted[n]) continue
      this.changeCount += 1 + this.adjacency[n]!.length
      this.present[n] = false
      this.deleted[n] = true
    }
  }

  /** Number of a node, or undefined when the uuid is unknown. */
  node(uuid: string): number | undefined {
    const n = this.nodeOf.get(uuid)
    return n !== undefined && this.present[n] ? n : undefined
  }

  get nodeCount(): number {
    return this.uuid.length
  }

  /** Estimated bytes held (see `index-bytes.ts`): O(1). */
  bytes(): number {
    const { node, edge, walkScratch } = INDEX_BYTES.graph
    return (
      this.uuid.length * node +
      this.edgeUuid.length * edge +
      (this.uuid.length + this.passageId.length) * walkScratch
    )
  }

  /** The node at the other end of edge `e` from `n`. */
  other(e: number, n: number): number {
    return this.subject[e] === n ? this.object[e]! : this.subject[e]!
  }

  /**
   * The graph as it was at `filter` (docs/time.md): a view sharing this index's arrays in which nodes
   * and edges the brain had not learned by `knownAt`, or that had not begun by `asOf`, are gone, and
   * facts ended by then are not `valid` (still walkable for history, as superseded facts are now).
   * O(nodes + edges) per new time (the last few are kept until a write); the default filter returns
   * this index itself.
   */
  at(filter: TimeFilter, now = Date.now()): GraphIndex {
    if (filter.asOf === undefined && filter.knownAt === undefined) return this
    // With `asOf` or `knownAt` the view does not depend on `now`: the last few are kept until a write.
    const key = `${filter.asOf ?? ''}|${filter.knownAt ?? ''}`
    const kept = this.views.get(key)
    if (kept !== undefined) return kept
    const view = this.viewAt(filter, now)
    if (this.views.size >= MAX_VIEWS) this.views.delete(this.views.keys().next().value!)
    this.views.set(key, view)
    return view
  }

  private viewAt(filter: TimeFilter, now: number): GraphIndex {
    const unborn = (w: Window) =>
      (filter.knownAt !== undefined && w.created > filter.knownAt) ||
      (filter.asOf !== undefined && w.validFrom > filter.asOf)
    const present = this.present.map((p, n) => p && !unborn(this.nodeWindow[n]!))
    const hidden = this.edgeWindow.map(unborn)
    const valid = this.valid.map((_, e) => !hidden[e] && visible(this.edgeWindow[e]!, filter, now))
    const deprecated = this.deprecated.map((d, e) => d && !valid[e])
    const { live, subject, object } = this
    const view = Object.create(this) as GraphIndex
    Object.defineProperties(view, {
      present: { value: present },
      valid: { value: valid },
      deprecated: { value: deprecated },
      usable: {
        value: (e: number) =>
          live[e]! && !hidden[e] && present[subject[e]!]! && present[object[e]!]!,
      },
    })
    return view
  }

  /** Edge `e` has an end, whenever it is asked from (a time view answers as the index does). */
  hasEnded(e: number): boolean {
    return this.edgeWindow[e]!.validTo !== Number.POSITIVE_INFINITY
  }

  /** Edge `e` can be traversed: live and both ends present. */
  usable(e: number): boolean {
    return this.live[e]! && this.present[this.subject[e]!]! && this.present[this.object[e]!]!
  }

  /** Whether `n` is a value (a date: `VALUE_LABELS`) rather than a thing. */
  isValue(n: number): boolean {
    return this.labels[n]!.some((l) => VALUE_LABELS.includes(l))
  }

  /** Live edges of `n` (both directions). */
  degree(n: number): number {
    return this.adjacency[n]!.length
  }

  /**
   * Relationships touching `uuid` as the store counts them (`relationships.of`): live edges, deprecated
   * included, and self-loops once; whether or not the entity record exists. 0 for an unknown uuid.
   */
  relationshipCount(uuid: string): number {
    const n = this.nodeOf.get(uuid)
    return n === undefined ? 0 : this.adjacency[n]!.length + this.loops[n]!
  }

  /** Live edges of `uuid` (self-loops left out), whether or not the entity record exists. */
  edgesOf(uuid: string): readonly number[] {
    const n = this.nodeOf.get(uuid)
    return n === undefined ? [] : this.adjacency[n]!
  }

  /** Time of an edge: its own date, else the event's at either end, else NaN. */
  timeOfEdge(e: number): number {
    const t = this.edgeTime[e]!
    if (!Number.isNaN(t)) return t
    const s = this.subject[e]!
    const o = this.object[e]!
    return this.isEvent[o] ? this.time[o]! : this.isEvent[s] ? this.time[s]! : Number.NaN
  }

  /**
   * The other legs of event `event` seen from its leg `via`: edges of the event sharing `via`'s flow
   * key (an edge without a flow key pairs with every leg), excluding `via` itself.
   */
  legs(event: number, via: number): number[] {
    const flow = this.flowKey[via]
    const out: number[] = []
    for (const e of this.adjacency[event]!) {
      if (e === via || !this.usable(e)) continue
      const f = this.flowKey[e]
      if (flow === null || f === null || f === flow) out.push(e)
    }
    return out
  }

  /** Nodes and edges that cite a passage as their source. */
  fromPassage(passageId: string): { nodes: number[]; edges: number[] } {
    return {
      nodes: [...(this.passageNodes.get(passageId) ?? [])].filter((n) => this.present[n]),
      edges: [...(this.passageEdges.get(passageId) ?? [])].filter((e) => this.usable(e)),
    }
  }

  private intern(uuid: string): number {
    let n = this.nodeOf.get(uuid)
    if (n === undefined) {
      n = this.uuid.length
      this.nodeOf.set(uuid, n)
      this.uuid.push(uuid)
      this.name.push('')
      this.labels.push([])
      this.labelSetId.push(this.internLabels([]))
      this.polarity.push('neutral')
      this.time.push(Number.NaN)
      this.description.push(null)
      this.observations.push([])
      this.present.push(false)
      this.deleted.push(false)
      this.isEvent.push(false)
      this.kindSetId.push(this.internKinds([]))
      this.adjacency.push([])
      this.loops.push(0)
      this.nodePassages.push([])
      this.nodeWindow.push(ALWAYS)
    }
    return n
  }

  private putEntity(e: Entity): void {
    const n = this.intern(e.uuid)
    const description = cap(e.description)
    if (
      !this.present[n] ||
      this.name[n] !== e.name ||
      this.description[n] !== description ||
      this.labels[n]!.join('\u0000') !== e.labels.join('\u0000')
    )
      this.changeCount++
    this.description[n] = description
    this.deleted[n] = false
    this.name[n] = e.name
    this.labels[n] = e.labels
    this.labelSetId[n] = this.internLabels(e.labels)
    this.polarity[n] = e.polarity
    this.time[n] = timeOf(e.happenedAt)
    this.present[n] = true
    this.isEvent[n] = e.labels.includes(EVENT_LABEL)
    this.nodeWindow[n] = sameWindow(windowOf(e))
    this.kindSetId[n] = this.internKinds(this.isEvent[n] ? eventKinds(e) : [])
    for (const p of e.sourcePassageIds) this.cite(this.passageNodes, p, n)
    this.citePassages(n, e.sourcePassageIds)
  }

  /** Records `n`'s source passages in both directions, dropping those its record no longer lists. */
  private citePassages(n: number, sourcePassageIds: readonly string[]): void {
    const now = new Set(sourcePassageIds.map((p) => this.numberPassage(p)))
    const before = this.nodePassages[n]!
    if (before.length === now.size && before.every((p) => now.has(p))) return
    const kept = new Set(before)
    for (const p of before)
      if (!now.has(p)) this.passageEntities[p] = this.passageEntities[p]!.filter((m) => m !== n)
    for (const p of now) if (!kept.has(p)) this.passageEntities[p]!.push(n)
    this.nodePassages[n] = [...now]
  }

  /** Number of a passage in `passageId`, or undefined when no node cites it. */
  passageNumber(passageId: string): number | undefined {
    return this.passageNo.get(passageId)
  }

  private numberPassage(passageId: string): number {
    let p = this.passageNo.get(passageId)
    if (p === undefined) {
      p = this.passageId.length
      this.passageNo.set(passageId, p)
      this.passageId.push(passageId)
      this.passageEntities.push([])
    }
    return p
  }

  private putRelationship(r: Relationship): void {
    let e = this.edgeOf.get(r.uuid)
    const s = this.intern(r.subjectUuid)
    const o = this.intern(r.objectUuid)
    if (e === undefined) {
      e = this.edgeUuid.length
      this.edgeOf.set(r.uuid, e)
      this.edgeUuid.push(r.uuid)
      this.subject.push(s)
      this.object.push(o)
      this.predicate.push(r.name)
      this.predicateId.push(0)
      this.flowKey.push(r.flowKey)
      this.edgeTime.push(Number.NaN)
      this.weight.push(Number.NaN)
      this.linkWeight.push(1)
      this.edgeDescription.push(null)
      this.valid.push(true)
      this.deprecated.push(false)
      this.live.push(false)
      this.edgeWindow.push(ALWAYS)
      this.edgePassages.push(NO_PASSAGES)
    } else if (this.live[e] && (this.subject[e] !== s || this.object[e] !== o)) {
      this.detach(e)
    }
    // Valid: not ended by now (deprecated, `invalidAt` or a hand-written `properties.invalid_at`).
    const window = sameWindow(windowOf(r))
    const valid = visible(window, {}, Date.now())
    const linkWeight = linkWeightOf(r)
    const counted = this.live[e]! && this.valid[e]!
    if (counted !== (valid && s !== o) || (counted && this.linkWeight[e] !== linkWeight))
      this.changeCount++
    this.subject[e] = s
    this.object[e] = o
    this.linkWeight[e] = linkWeight
    this.edgeDescription[e] = cap(r.description)
    this.predicate[e] = r.name
    this.predicateId[e] = this.internPredicate(r.name)
    this.flowKey[e] = r.flowKey
    this.edgeTime[e] = timeOf(r.happenedAt)
    this.weight[e] = numberOr(r.properties.weight, numberOr(r.amount, Number.NaN))
    this.valid[e] = valid
    this.deprecated[e] = r.deprecated
    this.edgeWindow[e] = window
    this.forgetLoop(e)
    if (s === o) {
      this.loops[s]!++
      this.loopNode.set(e, s)
    }
    if (!this.live[e] && s !== o) {
      this.adjacency[s]!.push(e)
      this.adjacency[o]!.push(e)
      this.live[e] = true
    }
    this.citeEdgePassages(e, r.sourcePassageIds)
  }

  /**
   * Records `e`'s source passages in both directions, dropping those its record no longer lists (a
   * forgotten passage's citation, docs/forgetting.md).
   */
  private citeEdgePassages(e: number, sourcePassageIds: readonly string[]): void {
    const now = new Set(sourcePassageIds)
    const before = this.edgePassages[e]!
    if (before.length === now.size && before.every((p) => now.has(p))) return
    for (const p of before) {
      if (now.has(p)) continue
      const edges = this.passageEdges.get(p)
      edges?.delete(e)
      if (edges?.size === 0) this.passageEdges.delete(p)
    }
    for (const p of now) this.cite(this.passageEdges, p, e)
    this.edgePassages[e] = now.size === 0 ? NO_PASSAGES : [...now].sort()
  }

  /** Keeps the first few observations of an entity (observations of passages are not graph facts). */
  private putObservation(o: Observation): void {
    const n = this.nodeOf.get(o.resourceId)
    if (n === undefined || this.deleted[n]) return
    const list = this.observations[n]!
    const at = list.findIndex((x) => x.id === o.id)
    const text = cap(o.text)!
    if (at >= 0) list[at] = { id: o.id, text }
    else if (list.length < OBSERVATIONS_PER_NODE) {
      list.push({ id: o.id, text })
      this.observationNode.set(o.id, n)
    }
  }

  /** Drops a deleted observation from its node's list (a forgotten text must not reach a summary). */
  private removeObservation(id: string): void {
    const n = this.observationNode.get(id)
    if (n === undefined) return
    this.observationNode.delete(id)
    this.observations[n] = this.observations[n]!.filter((x) => x.id !== id)
  }

  private forgetLoop(e: number): void {
    const n = this.loopNode.get(e)
    if (n === undefined) return
    this.loops[n]!--
    this.loopNode.delete(e)
  }

  private removeRelationship(uuid: string): void {
    const e = this.edgeOf.get(uuid)
    if (e !== undefined) this.forgetLoop(e)
    if (e === undefined || !this.live[e]) return
    if (this.valid[e]) this.changeCount++
    this.detach(e)
  }

  private detach(e: number): void {
    for (const n of [this.subject[e]!, this.object[e]!]) {
      const list = this.adjacency[n]!
      const at = list.indexOf(e)
      if (at >= 0) list.splice(at, 1)
    }
    this.live[e] = false
  }

  private internPredicate(name: string): number {
    let id = this.predicateOf.get(name)
    if (id === undefined) {
      id = this.predicates.length
      this.predicates.push(name)
      this.predicateOf.set(name, id)
    }
    return id
  }

  private internKinds(kinds: readonly string[]): number {
    const key = kinds.join('\u0000')
    let id = this.kindSetOf.get(key)
    if (id === undefined) {
      id = this.kindSets.length
      this.kindSets.push([...kinds])
      this.kindSetOf.set(key, id)
    }
    return id
  }

  private internLabels(labels: readonly string[]): number {
    const key = labels.join('\u0000')
    let id = this.labelSetOf.get(key)
    if (id === undefined) {
      id = this.labelSets.length
      this.labelSets.push([...labels])
      this.labelSetOf.set(key, id)
    }
    return id
  }

  private cite(map: Map<string, Set<number>>, passageId: string, id: number): void {
    let set = map.get(passageId)
    if (set === undefined) map.set(passageId, (set = new Set()))
    set.add(id)
  }
}
