import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { polarity as polaritySchema, type Polarity } from '../../model/common.js'
import { digestBytes } from '../../digest.js'
import type { Window } from '../../time/validity.js'
import {
  arrayPart,
  decodeSnapshotSliced,
  encodeSnapshot,
  isCount,
  jsonPart,
  stringsPart,
  type SnapshotParts,
} from '../snapshot-codec.js'
import { writeFileDurably } from '../vectors/vector-snapshot.js'
import type { Pause } from '../index-component.js'
import { loopYielder } from '../../loop-yielder.js'
import { csrRanges, ranges, runSliced, runWhole, type Sliced } from '../sliced-work.js'
import { deriveGraphIndex } from './graph-index-derived.js'
import { compactGraphState } from './compact-graph-state.js'
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

const FORMAT = 1
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

/** Lists of numbers in CSR form: list `i` is `values[offsets[i]..offsets[i + 1]]`. */
function csr(lists: readonly (readonly number[])[]): { offsets: Uint32Array; values: Uint32Array } {
  const offsets = new Uint32Array(lists.length + 1)
  let total = 0
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = total += lists[i]!.length
  const values = new Uint32Array(total)
  for (let i = 0; i < lists.length; i++) values.set(lists[i]!, offsets[i]!)
  return { offsets, values }
}

/** Offsets (CSR) of lists of any kind, their items flattened by the caller in the same order. */
function offsetsOf(lists: readonly (readonly unknown[])[]): Uint32Array {
  const offsets = new Uint32Array(lists.length + 1)
  let total = 0
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = total += lists[i]!.length
  return offsets
}

/** Strings that may be null: a flag byte per item, and the present strings in order. */
function nullable(list: readonly (string | null)[]): { flags: Uint8Array; values: string[] } {
  const flags = new Uint8Array(list.length)
  const values: string[] = []
  list.forEach((s, i) => {
    if (s === null) return
    flags[i] = 1
    values.push(s)
  })
  return { flags, values }
}

/** Repeated strings (null allowed) as a table and an index per item (-1: null). */
function interned(list: readonly (string | null)[]): { ids: Int32Array; table: string[] } {
  const ids = new Int32Array(list.length)
  const table: string[] = []
  const idOf = new Map<string, number>()
  list.forEach((s, i) => {
    if (s === null) return void (ids[i] = -1)
    let id = idOf.get(s)
    if (id === undefined) idOf.set(s, (id = table.push(s) - 1))
    ids[i] = id
  })
  return { ids, table }
}

/**
 * Windows as an index per record (0: unbounded) into rows of four numbers, one row per distinct
 * window: records written at once share their `created`, and a load shares their window objects
 * (never changed in place: a write replaces a record's window).
 */
function windows(list: readonly Window[]): { ids: Uint32Array; table: Float64Array } {
  const ids = new Uint32Array(list.length)
  const rows: number[] = []
  const rowOf = new Map<string, number>()
  list.forEach((w, i) => {
    if (w === UNBOUNDED_WINDOW) return
    const key = `${w.validFrom} ${w.validTo} ${w.created} ${w.expired}`
    let row = rowOf.get(key)
    if (row === undefined) {
      rows.push(w.validFrom, w.validTo, w.created, w.expired)
      rowOf.set(key, (row = rows.length / 4))
    }
    ids[i] = row
  })
  return { ids, table: Float64Array.from(rows) }
}

/** A map of sets of numbers as its keys, and the sets in CSR form (the sets' order kept). */
function setsOf(map: ReadonlyMap<string, ReadonlySet<number>>) {
  return { keys: [...map.keys()], ...csr([...map.values()].map((set) => [...set])) }
}

/**
 * The graph as snapshot parts, without what deletions left in it (`compactGraphState`). Synchronous:
 * the graph cannot change meanwhile.
 */
export function graphToParts(graph: GraphIndex): SnapshotParts {
  const s = compactGraphState(graph.toState())
  const labelSets = s.labelSets
  const kindSets = s.kindSets
  const polarity = interned(s.polarity)
  const description = nullable(s.description)
  const edgeDescription = nullable(s.edgeDescription)
  const flowKey = interned(s.flowKey)
  const adjacency = csr(s.adjacency)
  const nodePassages = csr(s.nodePassages)
  const passageEntities = csr(s.passageEntities)
  const passageNodes = setsOf(s.passageNodes)
  const passageEdges = setsOf(s.passageEdges)
  const nodeWindow = windows(s.nodeWindow)
  const edgeWindow = windows(s.edgeWindow)
  const nodeFlags = Uint8Array.from(
    s.present,
    (p, n) => (p ? NODE_PRESENT : 0) | (s.deleted[n] ? NODE_DELETED : 0),
  )
  const edgeFlags = Uint8Array.from(
    s.live,
    (l, e) => (l ? EDGE_LIVE : 0) | (s.deprecated[e] ? EDGE_DEPRECATED : 0),
  )
  return {
    json: {
      format: FORMAT,
      nodes: s.uuid.length,
      edges: s.edgeUuid.length,
      passages: s.passageId.length,
    },
    arrays: {
      labelSetId: Uint32Array.from(s.labelSetId),
      labelSetOffsets: offsetsOf(labelSets),
      polarity: polarity.ids,
      time: Float64Array.from(s.time),
      descriptionFlags: description.flags,
      observationOffsets: offsetsOf(s.observations),
      observationNodeNodes: Uint32Array.from(s.observationNode.values()),
      nodeFlags,
      kindSetId: Uint32Array.from(s.kindSetId),
      kindSetOffsets: offsetsOf(kindSets),
      adjacencyOffsets: adjacency.offsets,
      adjacency: adjacency.values,
      loops: Uint32Array.from(s.loops),
      nodePassagesOffsets: nodePassages.offsets,
      nodePassages: nodePassages.values,
      nodeWindow: nodeWindow.ids,
      nodeWindows: nodeWindow.table,
      subject: Uint32Array.from(s.subject),
      object: Uint32Array.from(s.object),
      predicateId: Uint32Array.from(s.predicateId),
      flowKey: flowKey.ids,
      edgeTime: Float64Array.from(s.edgeTime),
      weight: Float64Array.from(s.weight),
      linkWeight: Float64Array.from(s.linkWeight),
      edgeDescriptionFlags: edgeDescription.flags,
      edgeFlags,
      edgeWindow: edgeWindow.ids,
      edgeWindows: edgeWindow.table,
      loopEdges: Uint32Array.from(s.loopNode.keys()),
      loopNodes: Uint32Array.from(s.loopNode.values()),
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
      observationIds: s.observations.flatMap((list) => list.map((o) => o.id)),
      observationTexts: s.observations.flatMap((list) => list.map((o) => o.text)),
      observationNodeIds: [...s.observationNode.keys()],
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

/**
 * Writes the graph into directory `dir` as one file (`snapshot-codec.ts`, then its SHA-256), encoded
 * synchronously (the graph cannot change meanwhile), written under a temporary name, synced, then
 * renamed and the directory synced: the file is complete or absent. 0700 / 0600 as every file of a
 * brain (`private-files.ts`). Returns the file's size in bytes.
 */
export async function saveGraphSnapshot(graph: GraphIndex, dir: string): Promise<number> {
  const bytes = encodeSnapshot(graphToParts(graph))
  await writeFileDurably(dir, FILE, Buffer.concat([bytes, digestBytes('sha256', bytes)]))
  return bytes.length + DIGEST_BYTES
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
