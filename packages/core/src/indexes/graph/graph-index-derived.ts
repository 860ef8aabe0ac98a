import { EVENT_LABEL } from '../../model/entity.js'
import { visible } from '../../time/validity.js'
import { ranges, SLICE_ITEMS, type Sliced } from '../sliced-work.js'
import type { GraphIndexState } from './graph-index.js'

/** The source passages of every edge that cites none (one shared empty list). */
export const NO_PASSAGES: readonly string[] = Object.freeze([])

/**
 * What a {@link GraphIndex} derives from its state (`GraphIndexState`) rather than stores: labels and
 * predicates from their interned ids, `isEvent` from the labels, `valid` from the windows at `now`,
 * each edge's source passages from the passages' citing edges, and the lookups by uuid, passage id,
 * predicate name and label or kind set key.
 */
export interface GraphIndexDerived {
  edgePassages: (readonly string[])[]
  labels: (readonly string[])[]
  isEvent: boolean[]
  predicate: string[]
  valid: boolean[]
  nodeOf: Map<string, number>
  edgeOf: Map<string, number>
  passageNo: Map<string, number>
  predicateOf: Map<string, number>
  labelSetOf: Map<string, number>
  kindSetOf: Map<string, number>
}

/** `values[i]` of every list for each `ids[i]`, a few thousand at a time. */
function* lookedUp<T>(ids: readonly number[], values: readonly T[]): Sliced<T[]> {
  const out = new Array<T>(ids.length)
  yield* ranges(ids.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = values[ids[i]!]!
  })
  return out
}

/** Each key's number (its index), later keys winning as `Map.set` in order would have it. */
function* numbered(keys: readonly string[]): Sliced<Map<string, number>> {
  const out = new Map<string, number>()
  yield* ranges(keys.length, (from, to) => {
    for (let i = from; i < to; i++) out.set(keys[i]!, i)
  })
  return out
}

/**
 * What the index derives from `state` (a snapshot's), in slices (`sliced-work.ts`): on
 * MovieLens-small's graph the lookups by uuid alone take tens of milliseconds.
 */
export function* deriveGraphIndex(state: GraphIndexState, now: number): Sliced<GraphIndexDerived> {
  const labels = yield* lookedUp(state.labelSetId, state.labelSets)
  const isEvent = new Array<boolean>(labels.length)
  yield* ranges(labels.length, (from, to) => {
    for (let n = from; n < to; n++) isEvent[n] = labels[n]!.includes(EVENT_LABEL)
  })
  const predicate = yield* lookedUp(state.predicateId, state.predicates)
  const windows = state.edgeWindow
  const valid = new Array<boolean>(windows.length)
  yield* ranges(windows.length, (from, to) => {
    for (let e = from; e < to; e++) valid[e] = visible(windows[e]!, {}, now)
  })
  const edgePassages = new Array<readonly string[]>(windows.length).fill(NO_PASSAGES)
  let cited = 0
  for (const [passageId, edges] of state.passageEdges) {
    for (const e of edges) {
      const list = edgePassages[e]!
      if (list === NO_PASSAGES) edgePassages[e] = [passageId]
      else (list as string[]).push(passageId)
    }
    if (++cited % SLICE_ITEMS === 0) yield
  }
  yield* ranges(edgePassages.length, (from, to) => {
    for (let e = from; e < to; e++)
      if (edgePassages[e]!.length > 1) (edgePassages[e] as string[]).sort()
  })
  return {
    edgePassages,
    labels,
    isEvent,
    predicate,
    valid,
    nodeOf: yield* numbered(state.uuid),
    edgeOf: yield* numbered(state.edgeUuid),
    passageNo: yield* numbered(state.passageId),
    predicateOf: yield* numbered(state.predicates),
    labelSetOf: yield* numbered(state.labelSets.map((set) => set.join('\u0000'))),
    kindSetOf: yield* numbered(state.kindSets.map((set) => set.join('\u0000'))),
  }
}
