import type { GraphWalkResult, GraphWalkSeeds } from '../../contracts/search-plugins.js'
import { VALUE_LABELS } from '../../model/entity.js'
import type { GraphIndex } from './graph-index.js'

/** Where a walk starts: weights per passage id and per entity node (any scale; normalised to sum 1). */
export interface WalkSeeds {
  readonly passages: ReadonlyMap<string, number>
  readonly nodes: ReadonlyMap<number, number>
}

export interface WalkOptions {
  /** Probability of jumping back to the seeds at each step (1 - damping); HippoRAG uses 0.5. */
  readonly restart: number
  /** Push threshold per unit of weighted degree: smaller is more exact and slower. */
  readonly tolerance: number
  /** Weight of an entity-entity relationship edge, relative to a passage-entity mention edge (1). */
  readonly relationWeight: number
  /**
   * Mention edges of an entity cited by m passages weigh m^-hubDamping: 0 keeps every mention at 1; 1
   * makes an entity's mentions sum to 1, so a name in hundreds of passages carries no more than a rare one.
   */
  readonly hubDamping: number
  /**
   * Nodes with one of these labels are left out of the walk: they neither pass mass on nor hold any (an
   * event node cites the one passage its sentence came from, so it only sends mass back there).
   */
  readonly skipLabels: readonly string[]
  /**
   * Leave out, on the way from a passage, entities cited by that passage alone: they can only send the
   * mass back where it came from. They still start a walk when they are seeds.
   */
  readonly skipDeadEnds: boolean
  /** Hard cap on pushes, so a huge neighbourhood cannot stall a request. */
  readonly maxPushes: number
}

/**
 * Chosen on MuSiQue-100 and LoCoMo dev (benchmarks/LOG.md): relationship edges of the local extractor
 * (mostly subject-verb-object legs of one sentence) lowered MuSiQue R@5 (0.5717 -> 0.5550), so passages
 * connect only through shared entities; tolerance 1e-4 costs no recall against 1e-6 at a tenth of the
 * pushes. Dates are left out (`VALUE_LABELS`).
 */
export const DEFAULT_WALK: WalkOptions = {
  restart: 0.5,
  tolerance: 1e-4,
  relationWeight: 0,
  hubDamping: 0,
  skipLabels: VALUE_LABELS,
  skipDeadEnds: false,
  maxPushes: 200_000,
}

/** Stationary mass of passages (by id) and entity nodes reached by a walk. */
export interface WalkResult {
  readonly passages: Map<string, number>
  readonly nodes: Map<number, number>
  /** Pushes done (a cost measure for tests and timings). */
  readonly pushes: number
}

/**
 * Personalised PageRank (Haveliwala, "Topic-sensitive PageRank", WWW 2002) over the passage-entity graph
 * of a brain: passages link to the entities and events extracted from them (mention edges, weight 1),
 * entities to each other through live relationships (`relationWeight`). This is the graph of HippoRAG 2
 * (Gutiérrez et al., "From RAG to Memory", arXiv 2502.14802): passage nodes next to phrase nodes, the
 * walk seeded from both, so a passage one entity away from a seed passage (the second hop of a
 * multi-hop question) gathers mass that no lexical or dense score gives it.
 *
 * Computed by local push (Andersen, Chung & Lang, "Local Graph Partitioning using PageRank Vectors",
 * FOCS 2006): residual mass is pushed from a node while it exceeds `tolerance` x its weighted degree,
 * so the work depends on the seeds' neighbourhood, not on the size of the brain. A node without edges
 * keeps the mass that reaches it. Deleted entities are skipped.
 */
export function walkPassages(
  graph: GraphIndex,
  seeds: WalkSeeds,
  options: WalkOptions = DEFAULT_WALK,
): WalkResult {
  // Node space: entity n -> n; passage p -> offset + p.
  const offset = graph.nodeCount
  let total = 0
  for (const w of seeds.passages.values()) if (w > 0) total += w
  for (const w of seeds.nodes.values()) if (w > 0) total += w
  if (total === 0) return { passages: new Map(), nodes: new Map(), pushes: 0 }
  const s = takeScratch(graph, offset + graph.passageId.length)
  const { residual, estimate, degrees, flags, touched, estimated } = s
  const touch = (u: number) => {
    if ((flags[u]! & TOUCHED) === 0) {
      flags[u]! |= TOUCHED
      touched.push(u)
    }
  }
  // The queue starts with the seeds in the order they were first given mass.
  const queue: number[] = []
  const seed = (u: number, mass: number) => {
    touch(u)
    if ((flags[u]! & QUEUED) === 0) {
      flags[u]! |= QUEUED
      queue.push(u)
    }
    residual[u]! += mass
  }
  // A seed passage no entity cites has no edges: it keeps its own mass.
  const passages = new Map<string, number>()
  for (const [id, w] of seeds.passages) {
    if (w <= 0) continue
    const p = graph.passageNumber(id)
    if (p !== undefined) seed(offset + p, w / total)
    else passages.set(id, (passages.get(id) ?? 0) + w / total)
  }

  const { restart, tolerance, relationWeight, hubDamping } = options
  const skip = new Set(options.skipLabels)
  const skipSet = new Map<number, boolean>()
  const walkable = (n: number) => {
    if (!graph.present[n]) return false
    if (skip.size === 0) return true
    const set = graph.labelSetId[n]!
    let skipped = skipSet.get(set)
    if (skipped === undefined)
      skipSet.set(set, (skipped = graph.labelSets[set]!.some((l) => skip.has(l))))
    return !skipped
  }
  for (const [n, w] of seeds.nodes) if (w > 0 && walkable(n)) seed(n, w / total)
  const mention = (n: number) =>
    hubDamping === 0 ? 1 : Math.max(1, graph.nodePassages[n]!.length) ** -hubDamping
  const neighbours = (u: number, visit: (v: number, w: number) => void) => {
    if (u >= offset) {
      for (const n of graph.passageEntities[u - offset]!)
        if (walkable(n) && (!options.skipDeadEnds || graph.nodePassages[n]!.length > 1))
          visit(n, mention(n))
      return
    }
    const m = mention(u)
    for (const p of graph.nodePassages[u]!) visit(offset + p, m)
    if (relationWeight > 0)
      for (const e of graph.adjacency[u]!) {
        if (!graph.usable(e)) continue
        const v = graph.other(e, u)
        if (walkable(v)) visit(v, relationWeight)
      }
  }
  let sum = 0
  const count = (_v: number, w: number) => (sum += w)
  // An entity's mentions weigh 1 each when mentions are not damped and relationships carry nothing:
  // its degree is its passage count, without visiting them (a hub cited by hundreds of passages is
  // touched by most walks).
  const plainEntities = hubDamping === 0 && relationWeight === 0
  const degree = (u: number) => {
    if (plainEntities && u < offset) return graph.nodePassages[u]!.length
    if ((flags[u]! & DEGREE) === 0) {
      touch(u)
      sum = 0
      neighbours(u, count)
      degrees[u] = sum
      flags[u]! |= DEGREE
    }
    return degrees[u]!
  }
  const addEstimate = (u: number, mass: number) => {
    if ((flags[u]! & ESTIMATED) === 0) {
      flags[u]! |= ESTIMATED
      estimated.push(u)
    }
    estimate[u]! += mass
  }
  // The node being pushed from: the mass it spreads and its degree.
  let spread = 0
  let from = 0
  const push = (v: number, w: number) => {
    touch(v)
    const next = residual[v]! + (spread * w) / from
    residual[v] = next
    if ((flags[v]! & QUEUED) === 0 && next >= tolerance * degree(v)) {
      flags[v]! |= QUEUED
      queue.push(v)
    }
  }

  let pushes = 0
  try {
    while (queue.length > 0 && pushes < options.maxPushes) {
      const u = queue.pop()!
      flags[u]! &= ~QUEUED
      const r = residual[u]!
      const d = degree(u)
      if (d === 0) {
        addEstimate(u, r)
        residual[u] = 0
        continue
      }
      if (r < tolerance * d) continue
      pushes++
      addEstimate(u, restart * r)
      residual[u] = 0
      spread = (1 - restart) * r
      from = d
      neighbours(u, push)
    }

    const nodes = new Map<number, number>()
    for (const u of estimated) {
      if (u >= offset) passages.set(graph.passageId[u - offset]!, estimate[u]!)
      else nodes.set(u, estimate[u]!)
    }
    return { passages, nodes, pushes }
  } finally {
    releaseScratch(graph, s)
  }
}

/** Flags per node of a walk's scratch space. */
const TOUCHED = 1
const QUEUED = 2
const DEGREE = 4
const ESTIMATED = 8

/**
 * Per-node residual, estimate and degree of a walk in arrays over the node space, reused by the next
 * walk over the same graph: only the nodes a walk touched are cleared after it, so a walk costs its
 * neighbourhood, not the brain (maps keyed by node, as before, cost about twice as much per push).
 */
interface WalkScratch {
  residual: Float64Array
  estimate: Float64Array
  degrees: Float64Array
  flags: Uint8Array
  /** Nodes with any field set, to clear. */
  touched: number[]
  /** Nodes in the order they were first given an estimate (the result's order). */
  estimated: number[]
}

const scratches = new WeakMap<GraphIndex, WalkScratch>()

function takeScratch(graph: GraphIndex, size: number): WalkScratch {
  const held = scratches.get(graph)
  // Taken while in use: a walk is synchronous, so none runs inside another, but one that did would get its own.
  scratches.delete(graph)
  if (held !== undefined && held.flags.length >= size) return held
  const n = Math.max(16, Math.ceil(size * 1.25))
  return {
    residual: new Float64Array(n),
    estimate: new Float64Array(n),
    degrees: new Float64Array(n),
    flags: new Uint8Array(n),
    touched: [],
    estimated: [],
  }
}

function releaseScratch(graph: GraphIndex, s: WalkScratch): void {
  for (const u of s.touched) {
    s.residual[u] = 0
    s.estimate[u] = 0
    s.degrees[u] = 0
    s.flags[u] = 0
  }
  s.touched.length = 0
  s.estimated.length = 0
  scratches.set(graph, s)
}

/**
 * A walk from seeds named by id (the `GraphReader.walk` of plugins), `DEFAULT_WALK` where `options` is
 * silent: entity seeds are divided by the passages citing them (HippoRAG's node specificity: a name found
 * in one passage says more about the query than one found in hundreds) and counted once per passage
 * (`specificSeeds`), then scaled by the share of the passage seeds the graph holds (`inGraphShare`);
 * unknown or deleted ids are ignored, and results come back by id.
 */
export function walkFromSeeds(
  graph: GraphIndex,
  seeds: GraphWalkSeeds,
  options: Partial<WalkOptions> = {},
): GraphWalkResult {
  const settings: WalkOptions = {
    ...DEFAULT_WALK,
    ...options,
    skipLabels: options.skipLabels ?? DEFAULT_WALK.skipLabels,
    skipDeadEnds: options.skipDeadEnds ?? DEFAULT_WALK.skipDeadEnds,
  }
  const result = walkPassages(
    graph,
    {
      passages: seeds.passages,
      nodes: inGraphShare(graph, seeds.passages, specificSeeds(graph, seeds.entities)),
    },
    settings,
  )
  // Entities by uuid only when read: the graph stage reads passages alone.
  let entities: Map<string, number> | undefined
  return {
    passages: result.passages,
    get entities() {
      if (entities === undefined) {
        entities = new Map()
        for (const [n, mass] of result.nodes) entities.set(graph.uuid[n]!, mass)
      }
      return entities
    },
  }
}

/**
 * Entity seeds by node, each divided by the passages citing it and the whole rescaled to the weight the
 * seeds had together, so specificity moves weight between entities but not between entities and passages.
 *
 * Then one vote per passage: of the seeds that one passage alone cites, only the heaviest stays, and the
 * others' weight leaves the entity side (the walk normalises the reset vector, so it goes to the passage
 * seeds). The local extractor keeps a noun phrase's variants as entities of their own ("human RecQ
 * helicase", "human RecQ helicases", "five human RecQ helicases", each cited by one abstract); a query
 * matching all of them would otherwise count that one passage several times over, on the strength of its
 * wording rather than of what the search found. Measured on SciFact train, MuSiQue-100 and LoCoMo dev
 * (benchmarks/LOG.md, 2026-12-05): MuSiQue-100 R@5 0.6542 -> 0.6658, the others unchanged.
 */
export function specificSeeds(
  graph: GraphIndex,
  entities: ReadonlyMap<string, number>,
): Map<number, number> {
  const nodes = new Map<number, number>()
  let before = 0
  let after = 0
  for (const [uuid, w] of entities) {
    const n = graph.node(uuid)
    if (n === undefined || !(w > 0)) continue
    const specific = w / Math.max(1, graph.nodePassages[n]!.length)
    const previous = nodes.get(n) ?? 0
    if (specific <= previous) continue
    nodes.set(n, specific)
    before += w
    after += specific - previous
  }
  if (after > 0) for (const [n, w] of nodes) nodes.set(n, (w / after) * before)
  return oneVotePerPassage(graph, nodes)
}

/** `nodes` without the seeds one passage alone cites, but for that passage's heaviest (ties: first given). */
function oneVotePerPassage(graph: GraphIndex, nodes: Map<number, number>): Map<number, number> {
  const heaviest = new Map<number, number>()
  for (const [n, w] of nodes) {
    const cited = graph.nodePassages[n]!
    if (cited.length !== 1) continue
    const held = heaviest.get(cited[0]!)
    if (held === undefined || w > nodes.get(held)!) heaviest.set(cited[0]!, n)
  }
  for (const n of [...nodes.keys()]) {
    const cited = graph.nodePassages[n]!
    if (cited.length === 1 && heaviest.get(cited[0]!) !== n) nodes.delete(n)
  }
  return nodes
}

/**
 * Entity seeds scaled by the share of the passage seeds' weight on passages the graph holds (1 with no
 * passage seeds). The entity side speaks for the graph: when the passages a search found best have no
 * entities (committed without extraction, in a brain whose other part was ingested), the query is about
 * what the graph does not cover, and its word matches among the graph's entities ("show" in a claim,
 * "talent show" in a conversation) would carry the walk into the other part.
 */
function inGraphShare(
  graph: GraphIndex,
  passages: ReadonlyMap<string, number>,
  nodes: Map<number, number>,
): Map<number, number> {
  let all = 0
  let held = 0
  for (const [id, w] of passages) {
    if (!(w > 0)) continue
    all += w
    const p = graph.passageNumber(id)
    if (p !== undefined && graph.passageEntities[p]!.length > 0) held += w
  }
  if (all === 0 || held === all) return nodes
  for (const [n, w] of nodes) nodes.set(n, (w * held) / all)
  return nodes
}
