import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { polarity as polaritySchema, type Polarity } from '../../model/common.js'
import type { Window } from '../../time/validity.js'
import {
  arrayPart,
  decodeSnapshotSliced,
  encodeSnapshotSliced,
  isCount,
  jsonPart,
  stringsPart,
  type SnapshotParts,
} from '../snapshot-codec.js'
import { writeFileDurably } from '../vectors/vector-snapshot.js'
import type { Pause } from '../index-component.js'
import { loopYielder } from '../../loop-yielder.js'
import { csrRanges, ranges, runSliced, runWhole, SLICE_ITEMS, type Sliced } from '../sliced-work.js'
import { runSlicedUnlessChanged } from '../changed-during-save.js'
import { deriveGraphIndex } from './graph-index-derived.js'
import { compactGraphStateSliced } from './compact-graph-state.js'
import { GraphIndex, UNBOUNDED_WINDOW, type GraphIndexState } from './graph-index.js'

/*
 * A GraphIndex as snapshot parts (`snapshot-codec.ts`) and back, so that a restart loads a brain's
 * graph instead of reading every entity, relationship and observation again. Everything the index
 * holds (`GraphIndexState`) is stored, but what deletions left in it (`compact-graph-state.ts`); what
 * it derives is rebuilt at load. Nested lists (adjacency, passages per node and nodes per passage,
 * label and kind sets, observations, citations) are in compressed sparse row form (Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed. 2003,
 * section 3.4: one offsets array and one array of the values, in order, so list order is kept);
 * per-node and per-edge flags are bytes; strings are the codec's NUL-joined runs; validity windows an
 * index per record into a table of the distinct bounded ones (0: unbounded). The file ends with the
 * SHA-256 of the rest: a damaged file is refused, never read as a wrong graph.
 *
 * Not stored: the time views (a cache every write clears, rebuilt from the arrays on demand) and the
 * change count (communities compare it only with its own value when they were computed, over the same
 * object, and a graph built from the store starts counting anew too).
 */

/**
 * 2: an edge's citations follow its record (a forgotten passage's are dropped, `citeEdgePassages`);
 * a format 1 file may still list them, so it is rebuilt from the store.
 */
const FORMAT = 2
const FILE = 'graph.bin'
/** SHA-256 of the encoded parts, after them: a damaged byte that leaves the structure sound is caught. */
const DIGEST_BYTES = 32
/** Bytes hashed between two yields of a load: about a millisecond of SHA-256. */
const HASH_SLICE = 2 ** 20

const NODE_PRESENT = 1
const NODE_DELETED = 2
const EDGE_LIVE = 1
const EDGE_DEPRECATED = 2

const POLARITIES: readonly string[] = polaritySchema.options

/*
 * Encoding (`graphToPartsSliced`): every array of one item per node, edge or passage is converted a
 * few thousand items at a time (`ranges`, `sliced-work.ts`), so that a save can give the event loop
 * turns in between: on MovieLens-small's graph the conversions took ~300 ms in one go.
 */

/** Numbers as a Uint32Array (as `Uint32Array.from`), in slices. */
function* u32(list: readonly number[]): Sliced<Uint32Array> {
  const out = new Uint32Array(list.length)
  yield* ranges(list.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = list[i]!
  })
  return out
}

/** Numbers as a Float64Array (as `Float64Array.from`), in slices. */
function* f64(list: readonly number[]): Sliced<Float64Array> {
  const out = new Float64Array(list.length)
  yield* ranges(list.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = list[i]!
  })
  return out
}

/** Offsets (CSR) of lists of any kind, their items flattened by the caller in the same order. */
function* offsetsOf(lists: readonly (readonly unknown[])[]): Sliced<Uint32Array> {
  const offsets = new Uint32Array(lists.length + 1)
  let total = 0
  yield* ranges(lists.length, (from, to) => {
    for (let i = from; i < to; i++) offsets[i + 1] = total += lists[i]!.length
  })
  return offsets
}

/** Lists of numbers in CSR form: list `i` is `values[offsets[i]..offsets[i + 1]]`. */
function* csr(
  lists: readonly (readonly number[])[],
): Sliced<{ offsets: Uint32Array; values: Uint32Array }> {
  const offsets = yield* offsetsOf(lists)
  const values = new Uint32Array(offsets[lists.length]!)
  yield* csrRanges(offsets, lists.length, (from, to) => {
    for (let i = from; i < to; i++) values.set(lists[i]!, offsets[i]!)
  })
  return { offsets, values }
}

/** Strings that may be null: a flag byte per item, and the present strings in order. */
function* nullable(
  list: readonly (string | null)[],
): Sliced<{ flags: Uint8Array; values: string[] }> {
  const flags = new Uint8Array(list.length)
  const values: string[] = []
  yield* ranges(list.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const s = list[i]!
      if (s === null) continue
      flags[i] = 1
      values.push(s)
    }
  })
  return { flags, values }
}

/** Repeated strings (null allowed) as a table and an index per item (-1: null). */
function* interned(list: readonly (string | null)[]): Sliced<{ ids: Int32Array; table: string[] }> {
  const ids = new Int32Array(list.length)
  const table: string[] = []
  const idOf = new Map<string, number>()
  yield* ranges(list.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const s = list[i]!
      if (s === null) {
        ids[i] = -1
        continue
      }
      let id = idOf.get(s)
      if (id === undefined) idOf.set(s, (id = table.push(s) - 1))
      ids[i] = id
    }
  })
  return { ids, table }
}

/**
 * Windows as an index per record (0: unbounded) into rows of four numbers, one row per distinct
 * window: records written at once share their `created`, and a load shares their window objects
 * (never changed in place: a write replaces a record's window).
 */
function* windows(list: readonly Window[]): Sliced<{ ids: Uint32Array; table: Float64Array }> {
  const ids = new Uint32Array(list.length)
  const rows: number[] = []
  // Rows by window, through a map per field (as the four numbers joined as a key would, `Map`
  // equating NaNs and zeros as their text does): one rated event per row on MovieLens, and the key
  // as text cost 15-25 ms a slice. `validFrom` last, the field that differs most (events' dates).
  const rowOf = new Map<number, Map<number, Map<number, Map<number, number>>>>()
  const inner = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
    let value = map.get(key)
    if (value === undefined) map.set(key, (value = make()))
    return value
  }
  yield* ranges(list.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const w = list[i]!
      if (w === UNBOUNDED_WINDOW) continue
      const byFrom = inner(
        inner(
          inner(rowOf, w.expired, () => new Map()),
          w.validTo,
          () => new Map(),
        ),
        w.created,
        () => new Map<number, number>(),
      )
      let row = byFrom.get(w.validFrom)
      if (row === undefined) {
        rows.push(w.validFrom, w.validTo, w.created, w.expired)
        byFrom.set(w.validFrom, (row = rows.length / 4))
      }
      ids[i] = row
    }
  })
  return { ids, table: Float64Array.from(rows) }
}

/** A map's keys and values, in order, in slices. */
function* entriesOf<K, V>(map: ReadonlyMap<K, V>): Sliced<{ keys: K[]; values: V[] }> {
  const keys: K[] = []
  const values: V[] = []
  for (const [key, value] of map) {
    keys.push(key)
    values.push(value)
    if (keys.length % SLICE_ITEMS === 0) yield
  }
  return { keys, values }
}

/** A map of sets of numbers as its keys, and the sets in CSR form (the sets' order kept). */
function* setsOf(map: ReadonlyMap<string, ReadonlySet<number>>) {
  const { keys, values } = yield* entriesOf(map)
  const lists: number[][] = []
  yield* ranges(values.length, (from, to) => {
    for (let i = from; i < to; i++) lists.push([...values[i]!])
  })
  return { keys, ...(yield* csr(lists)) }
}

/** Per-record flag bytes: `a` sets `bitA`, `b` sets `bitB`. */
function* flagsOf(a: readonly boolean[], bitA: number, b: readonly boolean[], bitB: number) {
  const out = new Uint8Array(a.length)
  yield* ranges(a.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = (a[i] ? bitA : 0) | (b[i] ? bitB : 0)
  })
  return out
}

/** The ids and texts of every node's observations, flattened in order. */
function* observationsOf(observations: readonly (readonly { id: string; text: string }[])[]) {
  const ids: string[] = []
  const texts: string[] = []
  yield* ranges(observations.length, (from, to) => {
    for (let n = from; n < to; n++)
      for (const o of observations[n]!) {
        ids.push(o.id)
        texts.push(o.text)
      }
  })
  return { ids, texts }
}

/**
 * The graph as snapshot parts, without what deletions left in it (`compactGraphState`), in one go.
 */
export function graphToParts(graph: GraphIndex): SnapshotParts {
  return runWhole(graphToPartsSliced(graph))
}

/**
 * As `graphToParts`, in slices. The parts share lists with the graph (its uuids, names, ...) and are
 * read from it slice after slice: the caller must stop when the graph is written to meanwhile
 * (`saveGraphSnapshot` does, by its write count), and encode the parts before the next write.
 */
export function* graphToPartsSliced(graph: GraphIndex): Sliced<SnapshotParts> {
  const s = yield* compactGraphStateSliced(graph.toState())
  const labelSets = s.labelSets
  const kindSets = s.kindSets
  const polarity = yield* interned(s.polarity)
  const description = yield* nullable(s.description)
  const edgeDescription = yield* nullable(s.edgeDescription)
  const flowKey = yield* interned(s.flowKey)
  const adjacency = yield* csr(s.adjacency)
  const nodePassages = yield* csr(s.nodePassages)
  const passageEntities = yield* csr(s.passageEntities)
  const passageNodes = yield* setsOf(s.passageNodes)
  const passageEdges = yield* setsOf(s.passageEdges)
  const nodeWindow = yield* windows(s.nodeWindow)
  const edgeWindow = yield* windows(s.edgeWindow)
  const nodeFlags = yield* flagsOf(s.present, NODE_PRESENT, s.deleted, NODE_DELETED)
  const edgeFlags = yield* flagsOf(s.live, EDGE_LIVE, s.deprecated, EDGE_DEPRECATED)
  const observations = yield* observationsOf(s.observations)
  const observationNode = yield* entriesOf(s.observationNode)
  const loopNode = yield* entriesOf(s.loopNode)
  return {
    json: {
      format: FORMAT,
      nodes: s.uuid.length,
      edges: s.edgeUuid.length,
      passages: s.passageId.length,
    },
    arrays: {
      labelSetId: yield* u32(s.labelSetId),
      labelSetOffsets: yield* offsetsOf(labelSets),
      polarity: polarity.ids,
      time: yield* f64(s.time),
      descriptionFlags: description.flags,
      observationOffsets: yield* offsetsOf(s.observations),
      observationNodeNodes: yield* u32(observationNode.values),
      nodeFlags,
      kindSetId: yield* u32(s.kindSetId),
      kindSetOffsets: yield* offsetsOf(kindSets),
      adjacencyOffsets: adjacency.offsets,
      adjacency: adjacency.values,
      loops: yield* u32(s.loops),
      nodePassagesOffsets: nodePassages.offsets,
      nodePassages: nodePassages.values,
      nodeWindow: nodeWindow.ids,
      nodeWindows: nodeWindow.table,
      subject: yield* u32(s.subject),
      object: yield* u32(s.object),
      predicateId: yield* u32(s.predicateId),
      flowKey: flowKey.ids,
      edgeTime: yield* f64(s.edgeTime),
      weight: yield* f64(s.weight),
      linkWeight: yield* f64(s.linkWeight),
      edgeDescriptionFlags: edgeDescription.flags,
      edgeFlags,
      edgeWindow: edgeWindow.ids,
      edgeWindows: edgeWindow.table,
      loopEdges: yield* u32(loopNode.keys),
      loopNodes: yield* u32(loopNode.values),
      passageEntitiesOffsets: passageEntities.offsets,
      passageEntities: passageEntities.values,
      passageNodesOffsets: passageNodes.offsets,
      passageNodes: passageNodes.values,
      passageEdgesOffsets: passageEdges.offsets,
      passageEdges: passageEdges.values,
    },
    strings: {
      uuid: s.uuid,
      name: s.name,
      labelSets: labelSets.flat(),
      polarities: polarity.table,
      description: description.values,
      observationIds: observations.ids,
      observationTexts: observations.texts,
      observationNodeIds: observationNode.keys,
      kindSets: kindSets.flat(),
      edgeUuid: s.edgeUuid,
      predicates: s.predicates,
      flowKeys: flowKey.table,
      edgeDescription: edgeDescription.values,
      passageId: s.passageId,
      passageNodesKeys: passageNodes.keys,
      passageEdgesKeys: passageEdges.keys,
    },
  }
}

/** SHA-256 of `bytes`, a slice at a time (22.7 MiB for MovieLens-small's graph: 15-30 ms in one go). */
function* sha256Sliced(bytes: Buffer): Sliced<Buffer> {
  const hash = createHash('sha256')
  for (let at = 0; at < bytes.length; at += HASH_SLICE) {
    hash.update(bytes.subarray(at, at + HASH_SLICE))
    yield
  }
  return hash.digest()
}

/** Thrown for parts that do not fit together: the caller builds the graph from the store. */
function fail(what: string): never {
  throw new Error(`graph snapshot: ${what}`)
}

function expectLength(array: { length: number }, length: number, name: string): void {
  if (array.length !== length) fail(`'${name}' holds ${array.length} items, expected ${length}`)
}

/** Numbers of a typed array, each checked to be below `limit` (a node, edge or table number). */
function* numbersBelow(array: Uint32Array, limit: number, name: string): Sliced<number[]> {
  const out = new Array<number>(array.length)
  yield* ranges(array.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const v = array[i]!
      if (v >= limit) fail(`'${name}' names ${v}, beyond ${limit}`)
      out[i] = v
    }
  })
  return out
}

/*
 * The typed arrays become the index's own JS arrays (it pushes to them as writes come), each filled
 * by a loop into an array of its final length: four to five times faster than `push` or `Array.from`
 * (measured for 10^6 items), and one loop per element type keeps each loop's reads monomorphic. Each
 * loop runs a few thousand items at a time (`ranges`, `sliced-work.ts`), so that a load can give the
 * event loop turns in between.
 */

function* floatsOf(array: Float64Array): Sliced<number[]> {
  const out = new Array<number>(array.length)
  yield* ranges(array.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = array[i]!
  })
  return out
}

/** Whether each flag byte has `bit`. */
function* bitsOf(flags: Uint8Array, bit: number): Sliced<boolean[]> {
  const out = new Array<boolean>(flags.length)
  yield* ranges(flags.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = (flags[i]! & bit) !== 0
  })
  return out
}

/** `fn` of every item, in order, for the few arrays of strings and objects. */
function* mapArray<T>(array: ArrayLike<number>, fn: (value: number) => T): Sliced<T[]> {
  const out = new Array<T>(array.length)
  yield* ranges(array.length, (from, to) => {
    for (let i = from; i < to; i++) out[i] = fn(array[i]!)
  })
  return out
}

/** CSR offsets for `count` lists over `total` values: from 0, never decreasing, ending at `total`. */
function checkOffsets(offsets: Uint32Array, count: number, total: number, name: string): void {
  expectLength(offsets, count + 1, name)
  if (offsets[0] !== 0 || offsets[count] !== total) fail(`'${name}' do not span the values`)
  for (let i = 0; i < count; i++) if (offsets[i]! > offsets[i + 1]!) fail(`'${name}' decrease`)
}

/** `count` lists of numbers below `limit`, from CSR parts (`name` and `name + 'Offsets'`). */
function* lists(
  parts: SnapshotParts,
  name: string,
  count: number,
  limit: number,
): Sliced<number[][]> {
  const values = arrayPart(parts, name, Uint32Array)
  const offsets = arrayPart(parts, `${name}Offsets`, Uint32Array)
  checkOffsets(offsets, count, values.length, `${name}Offsets`)
  const out = new Array<number[]>(count)
  yield* csrRanges(offsets, count, (first, last) => {
    for (let i = first; i < last; i++) {
      const from = offsets[i]!
      const list: number[] = []
      for (let j = from; j < offsets[i + 1]!; j++) {
        const v = values[j]!
        if (v >= limit) fail(`'${name}' names ${v}, beyond ${limit}`)
        list.push(v)
      }
      out[i] = list
    }
  })
  return out
}

/** Lists of strings: `flat` cut at `offsets`. */
function stringLists(flat: string[], offsets: Uint32Array, name: string): string[][] {
  const count = offsets.length - 1
  if (count < 0) fail(`'${name}' have no offsets`)
  checkOffsets(offsets, count, flat.length, name)
  const out: string[][] = []
  for (let i = 0; i < count; i++) out.push(flat.slice(offsets[i]!, offsets[i + 1]!))
  return out
}

function* nullables(parts: SnapshotParts, name: string, count: number): Sliced<(string | null)[]> {
  const flags = arrayPart(parts, `${name}Flags`, Uint8Array)
  const values = stringsPart(parts, name)
  expectLength(flags, count, `${name}Flags`)
  let next = 0
  const out = yield* mapArray(flags, (f) =>
    f === 0 ? null : (values[next++] ?? fail(`'${name}' end`)),
  )
  if (next !== values.length) fail(`'${name}' holds ${values.length - next} strings too many`)
  return out
}

function* windowsOf(parts: SnapshotParts, name: string, count: number): Sliced<Window[]> {
  const table = arrayPart(parts, `${name}s`, Float64Array)
  if (table.length % 4 !== 0) fail(`'${name}s' is not rows of four`)
  const rows: Window[] = [UNBOUNDED_WINDOW]
  yield* ranges(table.length / 4, (from, to) => {
    for (let r = from * 4; r < to * 4; r += 4)
      rows.push({
        validFrom: table[r]!,
        validTo: table[r + 1]!,
        created: table[r + 2]!,
        expired: table[r + 3]!,
      })
  })
  const ids = arrayPart(parts, name, Uint32Array)
  expectLength(ids, count, name)
  return yield* mapArray(
    ids,
    (id) => rows[id] ?? fail(`'${name}' names row ${id}, beyond ${rows.length}`),
  )
}

/** `keys[i]` mapped to `values[i]`, in order. */
function* mapOf<K, V>(keys: readonly K[], values: readonly V[]): Sliced<Map<K, V>> {
  const out = new Map<K, V>()
  yield* ranges(keys.length, (from, to) => {
    for (let i = from; i < to; i++) out.set(keys[i]!, values[i]!)
  })
  return out
}

function* setsFrom(
  parts: SnapshotParts,
  name: string,
  limit: number,
): Sliced<Map<string, Set<number>>> {
  const keys = stringsPart(parts, `${name}Keys`)
  const sets = yield* lists(parts, name, keys.length, limit)
  const out = new Map<string, Set<number>>()
  yield* csrRanges(arrayPart(parts, `${name}Offsets`, Uint32Array), keys.length, (from, to) => {
    for (let i = from; i < to; i++) out.set(keys[i]!, new Set(sets[i]))
  })
  return out
}

function* floats(parts: SnapshotParts, name: string, count: number): Sliced<number[]> {
  const array = arrayPart(parts, name, Float64Array)
  expectLength(array, count, name)
  return yield* floatsOf(array)
}

/**
 * The graph `graphToParts` stored, in slices (`sliced-work.ts`): the index is made only at the end,
 * of arrays and maps no one else holds, so nothing sees a graph half made. Throws when the parts are
 * missing, of another format, or do not fit together (a count, an offset or a number out of range):
 * the caller builds from the store.
 */
function* graphFromPartsSliced(parts: SnapshotParts, now: number): Sliced<GraphIndex> {
  if (parts.json.format !== FORMAT) fail(`format ${String(parts.json.format)}`)
  const N = jsonPart<number>(parts, 'nodes', isCount)
  const E = jsonPart<number>(parts, 'edges', isCount)
  const P = jsonPart<number>(parts, 'passages', isCount)
  const uuid = stringsPart(parts, 'uuid')
  const edgeUuid = stringsPart(parts, 'edgeUuid')
  const passageId = stringsPart(parts, 'passageId')
  expectLength(uuid, N, 'uuid')
  expectLength(edgeUuid, E, 'edgeUuid')
  expectLength(passageId, P, 'passageId')
  const name = stringsPart(parts, 'name')
  expectLength(name, N, 'name')

  const labelSets = stringLists(
    stringsPart(parts, 'labelSets'),
    arrayPart(parts, 'labelSetOffsets', Uint32Array),
    'labelSets',
  )
  const kindSets = stringLists(
    stringsPart(parts, 'kindSets'),
    arrayPart(parts, 'kindSetOffsets', Uint32Array),
    'kindSets',
  )
  const ids = (key: string, count: number, limit: number) => {
    const array = arrayPart(parts, key, Uint32Array)
    expectLength(array, count, key)
    return numbersBelow(array, limit, key)
  }
  const polarities = stringsPart(parts, 'polarities')
  if (polarities.some((p) => !POLARITIES.includes(p))) fail('unknown polarity')
  const polarityIds = arrayPart(parts, 'polarity', Int32Array)
  expectLength(polarityIds, N, 'polarity')
  const polarity = yield* mapArray(
    polarityIds,
    (id) => (polarities[id] ?? fail('polarity out of range')) as Polarity,
  )

  const observationIds = stringsPart(parts, 'observationIds')
  const observationTexts = stringsPart(parts, 'observationTexts')
  expectLength(observationTexts, observationIds.length, 'observationTexts')
  const observationOffsets = arrayPart(parts, 'observationOffsets', Uint32Array)
  checkOffsets(observationOffsets, N, observationIds.length, 'observationOffsets')
  const observations: { id: string; text: string }[][] = new Array(N)
  yield* csrRanges(observationOffsets, N, (from, to) => {
    for (let n = from; n < to; n++) {
      const list: { id: string; text: string }[] = []
      for (let i = observationOffsets[n]!; i < observationOffsets[n + 1]!; i++)
        list.push({ id: observationIds[i]!, text: observationTexts[i]! })
      observations[n] = list
    }
  })
  const observationNodeIds = stringsPart(parts, 'observationNodeIds')
  const observationNodeNodes = yield* ids('observationNodeNodes', observationNodeIds.length, N)

  const nodeFlags = arrayPart(parts, 'nodeFlags', Uint8Array)
  expectLength(nodeFlags, N, 'nodeFlags')
  const edgeFlags = arrayPart(parts, 'edgeFlags', Uint8Array)
  expectLength(edgeFlags, E, 'edgeFlags')
  const flowKeys = stringsPart(parts, 'flowKeys')
  const flowKeyIds = arrayPart(parts, 'flowKey', Int32Array)
  expectLength(flowKeyIds, E, 'flowKey')
  const loopEdges = arrayPart(parts, 'loopEdges', Uint32Array)
  const loopNodes = yield* ids('loopNodes', loopEdges.length, N)
  const loops = arrayPart(parts, 'loops', Uint32Array)
  expectLength(loops, N, 'loops')

  const state: GraphIndexState = {
    uuid,
    name,
    labelSetId: yield* ids('labelSetId', N, labelSets.length),
    labelSets,
    polarity,
    time: yield* floats(parts, 'time', N),
    description: yield* nullables(parts, 'description', N),
    observations,
    observationNode: yield* mapOf(observationNodeIds, observationNodeNodes),
    present: yield* bitsOf(nodeFlags, NODE_PRESENT),
    deleted: yield* bitsOf(nodeFlags, NODE_DELETED),
    kindSetId: yield* ids('kindSetId', N, kindSets.length),
    kindSets,
    adjacency: yield* lists(parts, 'adjacency', N, E),
    loops: yield* numbersBelow(loops, 2 ** 32, 'loops'),
    nodePassages: yield* lists(parts, 'nodePassages', N, P),
    nodeWindow: yield* windowsOf(parts, 'nodeWindow', N),
    edgeUuid,
    subject: yield* ids('subject', E, N),
    object: yield* ids('object', E, N),
    predicateId: yield* ids('predicateId', E, stringsPart(parts, 'predicates').length),
    predicates: stringsPart(parts, 'predicates'),
    flowKey: yield* mapArray(flowKeyIds, (id) =>
      id === -1 ? null : (flowKeys[id] ?? fail('flow key out of range')),
    ),
    edgeTime: yield* floats(parts, 'edgeTime', E),
    weight: yield* floats(parts, 'weight', E),
    linkWeight: yield* floats(parts, 'linkWeight', E),
    edgeDescription: yield* nullables(parts, 'edgeDescription', E),
    deprecated: yield* bitsOf(edgeFlags, EDGE_DEPRECATED),
    live: yield* bitsOf(edgeFlags, EDGE_LIVE),
    edgeWindow: yield* windowsOf(parts, 'edgeWindow', E),
    loopNode: yield* mapOf(yield* numbersBelow(loopEdges, E, 'loopEdges'), loopNodes),
    passageId,
    passageEntities: yield* lists(parts, 'passageEntities', P, N),
    passageNodes: yield* setsFrom(parts, 'passageNodes', N),
    passageEdges: yield* setsFrom(parts, 'passageEdges', E),
  }
  return new GraphIndex(state, now, yield* deriveGraphIndex(state, now))
}

/**
 * The graph `graphToParts` stored, in one go. Throws when the parts are missing, of another format,
 * or do not fit together (a count, an offset or a number out of range): the caller builds from the
 * store.
 */
export function graphFromParts(parts: SnapshotParts, now = Date.now()): GraphIndex {
  return runWhole(graphFromPartsSliced(parts, now))
}

/** The graph's file but its SHA-256: parts, encoded, with room for the digest at the end. */
function* encodeGraph(graph: GraphIndex): Sliced<Buffer> {
  return yield* encodeSnapshotSliced(yield* graphToPartsSliced(graph), DIGEST_BYTES)
}

/**
 * Writes the graph into directory `dir` as one file (`snapshot-codec.ts`, then its SHA-256), written
 * under a temporary name, synced, then renamed and the directory synced: the file is complete or
 * absent. 0700 / 0600 as every file of a brain (`private-files.ts`). Returns the file's size in bytes.
 *
 * Encoded and hashed in slices, calling `pause` between them (by default a turn of the event loop
 * every ~10 ms): on MovieLens-small's graph the encode otherwise held the event loop for 0.4-0.65 s.
 * A write may be applied to the graph during a turn, and the parts read before it would not make one
 * graph with those read after it: the save then stops, writing nothing, with a
 * `ChangedDuringSaveError` (`changed-during-save.ts`), which the caller takes as "dropped, a write came",
 * not as a failure. "Changed" is the graph's own count of writes (`GraphIndex.writes`, bumped by every
 * `apply`, whoever calls it), or `changed()` answering true (the caller's own test, to stop sooner:
 * `index-snapshots.ts` passes the part's epoch, bumped before a write is even committed). Once
 * encoded, the bytes are the save's own: writes after that need no check here (the caller's epoch
 * decides whether the file is recorded).
 */
export async function saveGraphSnapshot(
  graph: GraphIndex,
  dir: string,
  pause: Pause = loopYielder(),
  changed: () => boolean = () => false,
): Promise<number> {
  const writes = graph.writes
  const bytes = await runSlicedUnlessChanged(
    encodeGraph(graph),
    pause,
    () => graph.writes !== writes || changed(),
    'graph',
  )
  const end = bytes.length - DIGEST_BYTES
  const digest = await runSliced(sha256Sliced(bytes.subarray(0, end)), pause)
  digest.copy(bytes, end)
  await writeFileDurably(dir, FILE, bytes)
  return bytes.length
}

/**
 * The graph `saveGraphSnapshot` wrote; throws on a missing, foreign, damaged or cut-short file. The
 * checksum, the decoding and the index's arrays and maps are computed in slices, calling `pause`
 * between them (by default a turn of the event loop every ~10 ms): on MovieLens-small's graph the
 * load otherwise held the event loop for 0.2-0.4 s, every other brain's requests waiting meanwhile.
 */
export async function loadGraphSnapshot(
  dir: string,
  now = Date.now(),
  pause: Pause = loopYielder(),
): Promise<GraphIndex> {
  const file = await readFile(join(dir, FILE))
  if (file.length < DIGEST_BYTES) fail('file cut short')
  const bytes = file.subarray(0, file.length - DIGEST_BYTES)
  const digest = await runSliced(sha256Sliced(bytes), pause)
  if (!digest.equals(file.subarray(file.length - DIGEST_BYTES))) fail('checksum mismatch')
  const parts = await runSliced(decodeSnapshotSliced(bytes), pause)
  return runSliced(graphFromPartsSliced(parts, now), pause)
}
