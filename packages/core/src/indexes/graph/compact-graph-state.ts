import { ranges, runWhole, SLICE_ITEMS, type Sliced } from '../sliced-work.js'
import { UNBOUNDED_WINDOW, type GraphIndexState } from './graph-index.js'

/**
 * The state of a graph without what its deletions left behind, renumbered, for a snapshot: a
 * `GraphIndex` keeps deleted nodes numbered (with their names, descriptions, labels and observations)
 * and removed edges (with their ids, predicates and descriptions), and never forgets a passage id, so
 * that numbers stay stable while the process runs. A snapshot must hold none of that (docs/forgetting.md:
 * after a forget, the forgotten text is in no file of the brain), and a graph built from the store
 * would not have it either. Kept, in their order: present nodes, every node an existing edge still
 * ends at (a deleted one becomes what a build makes of it, a placeholder with no text), existing edges
 * (live ones and self-loops), the passages a kept entity cites, and the interned labels, kinds and
 * predicates those use. Nothing deleted: the same state, field for field.
 */
export function compactGraphState(s: GraphIndexState): GraphIndexState {
  return runWhole(compactGraphStateSliced(s))
}

/**
 * `list.map(fn)`, a few thousand items at a time (`ranges`, `sliced-work.ts`): a list per node or
 * edge of MovieLens-small's graph is 112k-227k items.
 */
function* mapSliced<T, U>(list: readonly T[], fn: (item: T) => U): Sliced<U[]> {
  const out = new Array<U>(list.length)
  yield* ranges(list.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = fn(list[i]!)
  })
  return out
}

/** The items of `list` whose `numbers` are kept (>= 0), in order, in slices. */
function* keepSliced<T>(list: readonly T[], numbers: Int32Array): Sliced<T[]> {
  const out: T[] = []
  yield* ranges(list.length, (from, to) => {
    for (let i = from; i < to; i++) if (numbers[i]! >= 0) out.push(list[i]!)
  })
  return out
}

/**
 * As `compactGraphState`, in slices (`sliced-work.ts`), so that a snapshot save can give the event
 * loop turns in between. The caller makes sure `s` does not change meanwhile (a save stops when its
 * graph is written to between two slices: `saveGraphSnapshot`).
 */
export function* compactGraphStateSliced(s: GraphIndexState): Sliced<GraphIndexState> {
  const N = s.uuid.length
  const E = s.edgeUuid.length
  const keptEdge = (e: number) => s.live[e]! || s.loopNode.has(e)
  const edgeNo = new Int32Array(E).fill(-1)
  const nodeNo = new Int32Array(N).fill(-1)
  let edges = 0
  yield* ranges(E, (from, to) => {
    for (let e = from; e < to; e++) {
      if (!keptEdge(e)) continue
      edgeNo[e] = edges++
      nodeNo[s.subject[e]!] = 0
      nodeNo[s.object[e]!] = 0
    }
  })
  let nodes = 0
  let anyDeleted = false
  yield* ranges(N, (from, to) => {
    for (let n = from; n < to; n++) {
      if (s.present[n] || nodeNo[n] === 0) nodeNo[n] = nodes++
      if (s.deleted[n]) anyDeleted = true
    }
  })
  // Deleted nodes an edge still ends at keep their number and uuid, nothing of their record.
  const scrubbed = (n: number) => s.deleted[n]!
  if (nodes === N && edges === E && !anyDeleted) return yield* compactPassages(s)

  const keptNodes: number[] = []
  yield* ranges(N, (from, to) => {
    for (let n = from; n < to; n++) if (nodeNo[n]! >= 0) keptNodes.push(n)
  })
  const keptEdges: number[] = []
  yield* ranges(E, (from, to) => {
    for (let e = from; e < to; e++) if (edgeNo[e]! >= 0) keptEdges.push(e)
  })
  const emptyLabels = s.labelSets.findIndex((set) => set.length === 0)
  const emptyKinds = s.kindSets.findIndex((set) => set.length === 0)
  const node = <T>(values: T[], blank: T) =>
    mapSliced(keptNodes, (n) => (scrubbed(n) ? blank : values[n]!))
  const edge = <T>(values: T[]) => mapSliced(keptEdges, (e) => values[e]!)
  const renumberNodes = (list: Iterable<number>) => {
    const out: number[] = []
    for (const n of list) if (nodeNo[n]! >= 0 && !scrubbed(n)) out.push(nodeNo[n]!)
    return out
  }
  const renumberEdges = (list: Iterable<number>) => {
    const out: number[] = []
    for (const e of list) if (edgeNo[e]! >= 0) out.push(edgeNo[e]!)
    return out
  }
  const observationNode = new Map<string, number>()
  let seen = 0
  for (const [id, n] of s.observationNode) {
    if (nodeNo[n]! >= 0 && !scrubbed(n)) observationNode.set(id, nodeNo[n]!)
    if (++seen % SLICE_ITEMS === 0) yield
  }
  const loopNode = new Map<number, number>()
  for (const [e, n] of s.loopNode) if (edgeNo[e]! >= 0) loopNode.set(edgeNo[e]!, nodeNo[n]!)
  function* sets(
    map: Map<string, Set<number>>,
    renumber: (list: Iterable<number>) => number[],
  ): Sliced<Map<string, Set<number>>> {
    const out = new Map<string, Set<number>>()
    let count = 0
    for (const [key, set] of map) {
      const kept = renumber(set)
      if (kept.length > 0) out.set(key, new Set(kept))
      if (++count % SLICE_ITEMS === 0) yield
    }
    return out
  }
  return yield* compactPassages({
    uuid: yield* mapSliced(keptNodes, (n) => s.uuid[n]!),
    name: yield* node(s.name, ''),
    labelSetId: yield* node(s.labelSetId, emptyLabels),
    labelSets: s.labelSets,
    polarity: yield* node(s.polarity, 'neutral'),
    time: yield* node(s.time, Number.NaN),
    description: yield* node(s.description, null),
    observations: yield* mapSliced(keptNodes, (n) => (scrubbed(n) ? [] : s.observations[n]!)),
    observationNode,
    present: yield* node(s.present, false),
    deleted: yield* node(s.deleted, true),
    kindSetId: yield* node(s.kindSetId, emptyKinds),
    kindSets: s.kindSets,
    adjacency: yield* mapSliced(keptNodes, (n) => renumberEdges(s.adjacency[n]!)),
    // A deleted node's self-loops are still stored relationships.
    loops: yield* mapSliced(keptNodes, (n) => s.loops[n]!),
    nodePassages: yield* mapSliced(keptNodes, (n) => (scrubbed(n) ? [] : s.nodePassages[n]!)),
    nodeWindow: yield* node(s.nodeWindow, UNBOUNDED_WINDOW),
    edgeUuid: yield* edge(s.edgeUuid),
    subject: yield* mapSliced(keptEdges, (e) => nodeNo[s.subject[e]!]!),
    object: yield* mapSliced(keptEdges, (e) => nodeNo[s.object[e]!]!),
    predicateId: yield* edge(s.predicateId),
    predicates: s.predicates,
    flowKey: yield* edge(s.flowKey),
    edgeTime: yield* edge(s.edgeTime),
    weight: yield* edge(s.weight),
    linkWeight: yield* edge(s.linkWeight),
    edgeDescription: yield* edge(s.edgeDescription),
    deprecated: yield* edge(s.deprecated),
    live: yield* edge(s.live),
    edgeWindow: yield* edge(s.edgeWindow),
    loopNode,
    passageId: s.passageId,
    passageEntities: yield* mapSliced(s.passageEntities, (list) => renumberNodes(list)),
    passageNodes: yield* sets(s.passageNodes, renumberNodes),
    passageEdges: yield* sets(s.passageEdges, renumberEdges),
  })
}

/**
 * Keeps the passages a node cites and the interned sets and predicates in use, renumbered in their
 * order (a passage id or an event name may be what was forgotten).
 */
function* compactPassages(s: GraphIndexState): Sliced<GraphIndexState> {
  const passageNo = new Int32Array(s.passageId.length).fill(-1)
  yield* ranges(s.nodePassages.length, (from, to) => {
    for (let n = from; n < to; n++) for (const p of s.nodePassages[n]!) passageNo[p] = 0
  })
  let passages = 0
  for (let p = 0; p < passageNo.length; p++) if (passageNo[p] === 0) passageNo[p] = passages++
  yield
  // The empty sets stay (every new node starts with them, and they hold no text).
  const labels = yield* used(s.labelSetId, s.labelSets, (set) => set.length === 0)
  const kinds = yield* used(s.kindSetId, s.kindSets, (set) => set.length === 0)
  const predicates = yield* used(s.predicateId, s.predicates, () => false)
  if (
    passages === s.passageId.length &&
    labels.count === s.labelSets.length &&
    kinds.count === s.kindSets.length &&
    predicates.count === s.predicates.length
  )
    return s
  return {
    ...s,
    labelSetId: yield* mapSliced(s.labelSetId, (id) => labels.numbers[id]!),
    labelSets: yield* keepSliced(s.labelSets, labels.numbers),
    kindSetId: yield* mapSliced(s.kindSetId, (id) => kinds.numbers[id]!),
    kindSets: yield* keepSliced(s.kindSets, kinds.numbers),
    predicateId: yield* mapSliced(s.predicateId, (id) => predicates.numbers[id]!),
    predicates: yield* keepSliced(s.predicates, predicates.numbers),
    nodePassages: yield* mapSliced(s.nodePassages, (list) => list.map((p) => passageNo[p]!)),
    passageId: yield* keepSliced(s.passageId, passageNo),
    passageEntities: yield* keepSliced(s.passageEntities, passageNo),
  }
}

/**
 * New numbers (in order; -1: dropped) of the entries of `table` that `ids` use or `keep` keeps, and
 * how many there are.
 */
function* used<T>(
  ids: readonly number[],
  table: readonly T[],
  keep: (entry: T) => boolean,
): Sliced<{ numbers: Int32Array; count: number }> {
  const numbers = Int32Array.from(table, (entry) => (keep(entry) ? 0 : -1))
  yield* ranges(ids.length, (from, to) => {
    for (let i = from; i < to; i++) numbers[ids[i]!] = 0
  })
  let count = 0
  for (let i = 0; i < table.length; i++) if (numbers[i] === 0) numbers[i] = count++
  return { numbers, count }
}
