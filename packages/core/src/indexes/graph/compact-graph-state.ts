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
  const N = s.uuid.length
  const E = s.edgeUuid.length
  const keptEdge = (e: number) => s.live[e]! || s.loopNode.has(e)
  const edgeNo = new Int32Array(E).fill(-1)
  const nodeNo = new Int32Array(N).fill(-1)
  let edges = 0
  for (let e = 0; e < E; e++) {
    if (!keptEdge(e)) continue
    edgeNo[e] = edges++
    nodeNo[s.subject[e]!] = 0
    nodeNo[s.object[e]!] = 0
  }
  let nodes = 0
  for (let n = 0; n < N; n++) if (s.present[n] || nodeNo[n] === 0) nodeNo[n] = nodes++
  // Deleted nodes an edge still ends at keep their number and uuid, nothing of their record.
  const scrubbed = (n: number) => s.deleted[n]!
  if (nodes === N && edges === E && !s.deleted.some(Boolean)) return compactPassages(s)

  const keptNodes: number[] = []
  for (let n = 0; n < N; n++) if (nodeNo[n]! >= 0) keptNodes.push(n)
  const keptEdges: number[] = []
  for (let e = 0; e < E; e++) if (edgeNo[e]! >= 0) keptEdges.push(e)
  const emptyLabels = s.labelSets.findIndex((set) => set.length === 0)
  const emptyKinds = s.kindSets.findIndex((set) => set.length === 0)
  const node = <T>(values: T[], blank: T) =>
    keptNodes.map((n) => (scrubbed(n) ? blank : values[n]!))
  const edge = <T>(values: T[]) => keptEdges.map((e) => values[e]!)
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
  for (const [id, n] of s.observationNode)
    if (nodeNo[n]! >= 0 && !scrubbed(n)) observationNode.set(id, nodeNo[n]!)
  const loopNode = new Map<number, number>()
  for (const [e, n] of s.loopNode) if (edgeNo[e]! >= 0) loopNode.set(edgeNo[e]!, nodeNo[n]!)
  const sets = (map: Map<string, Set<number>>, renumber: (list: Iterable<number>) => number[]) => {
    const out = new Map<string, Set<number>>()
    for (const [key, set] of map) {
      const kept = renumber(set)
      if (kept.length > 0) out.set(key, new Set(kept))
    }
    return out
  }
  return compactPassages({
    uuid: keptNodes.map((n) => s.uuid[n]!),
    name: node(s.name, ''),
    labelSetId: node(s.labelSetId, emptyLabels),
    labelSets: s.labelSets,
    polarity: node(s.polarity, 'neutral'),
    time: node(s.time, Number.NaN),
    description: node(s.description, null),
    observations: keptNodes.map((n) => (scrubbed(n) ? [] : s.observations[n]!)),
    observationNode,
    present: node(s.present, false),
    deleted: node(s.deleted, true),
    kindSetId: node(s.kindSetId, emptyKinds),
    kindSets: s.kindSets,
    adjacency: keptNodes.map((n) => renumberEdges(s.adjacency[n]!)),
    // A deleted node's self-loops are still stored relationships.
    loops: keptNodes.map((n) => s.loops[n]!),
    nodePassages: keptNodes.map((n) => (scrubbed(n) ? [] : s.nodePassages[n]!)),
    nodeWindow: node(s.nodeWindow, UNBOUNDED_WINDOW),
    edgeUuid: edge(s.edgeUuid),
    subject: keptEdges.map((e) => nodeNo[s.subject[e]!]!),
    object: keptEdges.map((e) => nodeNo[s.object[e]!]!),
    predicateId: edge(s.predicateId),
    predicates: s.predicates,
    flowKey: edge(s.flowKey),
    edgeTime: edge(s.edgeTime),
    weight: edge(s.weight),
    linkWeight: edge(s.linkWeight),
    edgeDescription: edge(s.edgeDescription),
    deprecated: edge(s.deprecated),
    live: edge(s.live),
    edgeWindow: edge(s.edgeWindow),
    loopNode,
    passageId: s.passageId,
    passageEntities: s.passageEntities.map((list) => renumberNodes(list)),
    passageNodes: sets(s.passageNodes, renumberNodes),
    passageEdges: sets(s.passageEdges, renumberEdges),
  })
}

/**
 * Keeps the passages a node cites and the interned sets and predicates in use, renumbered in their
 * order (a passage id or an event name may be what was forgotten).
 */
function compactPassages(s: GraphIndexState): GraphIndexState {
  const passageNo = new Int32Array(s.passageId.length).fill(-1)
  for (const list of s.nodePassages) for (const p of list) passageNo[p] = 0
  let passages = 0
  for (let p = 0; p < passageNo.length; p++) if (passageNo[p] === 0) passageNo[p] = passages++
  // The empty sets stay (every new node starts with them, and they hold no text).
  const labels = used(s.labelSetId, s.labelSets, (set) => set.length === 0)
  const kinds = used(s.kindSetId, s.kindSets, (set) => set.length === 0)
  const predicates = used(s.predicateId, s.predicates, () => false)
  if (
    passages === s.passageId.length &&
    labels.count === s.labelSets.length &&
    kinds.count === s.kindSets.length &&
    predicates.count === s.predicates.length
  )
    return s
  const keep = <T>(values: T[], numbers: Int32Array) => values.filter((_, i) => numbers[i]! >= 0)
  return {
    ...s,
    labelSetId: s.labelSetId.map((id) => labels.numbers[id]!),
    labelSets: keep(s.labelSets, labels.numbers),
    kindSetId: s.kindSetId.map((id) => kinds.numbers[id]!),
    kindSets: keep(s.kindSets, kinds.numbers),
    predicateId: s.predicateId.map((id) => predicates.numbers[id]!),
    predicates: keep(s.predicates, predicates.numbers),
    nodePassages: s.nodePassages.map((list) => list.map((p) => passageNo[p]!)),
    passageId: keep(s.passageId, passageNo),
    passageEntities: keep(s.passageEntities, passageNo),
  }
}

/**
 * New numbers (in order; -1: dropped) of the entries of `table` that `ids` use or `keep` keeps, and
 * how many there are.
 */
function used<T>(
  ids: readonly number[],
  table: readonly T[],
  keep: (entry: T) => boolean,
): { numbers: Int32Array; count: number } {
  const numbers = Int32Array.from(table, (entry) => (keep(entry) ? 0 : -1))
  for (const id of ids) numbers[id] = 0
  let count = 0
  for (let i = 0; i < table.length; i++) if (numbers[i] === 0) numbers[i] = count++
  return { numbers, count }
}
