import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtures } from '../../../testing/fixtures.js'
import { isChangedDuringSave } from '../changed-during-save.js'
import { decodeSnapshot, encodeSnapshot } from '../snapshot-codec.js'
import { SLICE_ITEMS } from '../sliced-work.js'
import { GraphIndex } from './graph-index.js'
import {
  graphFromParts,
  graphToParts,
  loadGraphSnapshot,
  saveGraphSnapshot,
} from './graph-snapshot.js'

const { entity, relationship: rel } = fixtures
const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const NODES = 3 * SLICE_ITEMS

/** People in a ring, each rating the next one's item through an event: a few slices of everything. */
function ringGraph(): GraphIndex {
  const graph = new GraphIndex()
  const people = Array.from({ length: NODES / 3 }, (_, i) => `p${i}`)
  graph.apply({
    entities: people.flatMap((p, i) => [
      entity({ uuid: p, labels: ['PERSON'], sourcePassageIds: [`s${i % 50}`] }),
      entity({ uuid: `item-${p}`, labels: ['PRODUCT'], description: `item of ${p}` }),
      entity({ uuid: `ev-${p}`, name: 'rated', labels: ['EVENT'], happenedAt: '2024-01-02' }),
    ]),
    relationships: people.flatMap((p, i) => [
      rel({
        uuid: `k-${p}`,
        subjectUuid: p,
        name: 'KNOWS',
        objectUuid: people[(i + 1) % people.length]!,
      }),
      rel({ uuid: `r-${p}`, subjectUuid: p, name: 'RATED', objectUuid: `ev-${p}`, flowKey: 'f' }),
      rel({
        uuid: `t-${p}`,
        subjectUuid: `ev-${p}`,
        name: 'OF',
        objectUuid: `item-${p}`,
        flowKey: 'f',
      }),
    ]),
  })
  return graph
}

describe('graph snapshot loads', () => {
  it('give the event loop turns while they decode, and end with the graph a decode in one go makes', async () => {
    const graph = ringGraph()
    expect(graph.nodeCount).toBe(NODES)
    const dir = await mkdtemp(join(tmpdir(), 'engram-graph-slices-'))
    dirs.push(dir)
    await saveGraphSnapshot(graph, dir)
    const now = Date.now()
    let pauses = 0
    let ticks = 0
    let ticking = true
    const tick = () => {
      if (!ticking) return
      ticks++
      setImmediate(tick)
    }
    const loading = loadGraphSnapshot(dir, now, () => {
      pauses++
      // A real turn: other callbacks (`tick`) run before the decode goes on.
      return new Promise<void>((resolve) => setImmediate(resolve))
    })
    setImmediate(tick)
    const loaded = await loading
    ticking = false
    // Each array of one item per node or edge takes three slices or more (a dozen such arrays),
    // besides the checksum and the string lists: a decode in one go would pause never.
    expect(pauses).toBeGreaterThan(3 * 12)
    expect(ticks).toBeGreaterThan(3 * 12)

    const file = await readFile(join(dir, 'graph.bin'))
    const whole = graphFromParts(decodeSnapshot(file.subarray(0, file.length - 32)), now)
    expect(loaded).toEqual(whole)
    expect(loaded.nodeCount).toBe(NODES)
    expect(loaded.relationshipCount('p0')).toBe(3)
  })
})

/** A real turn of the event loop, counted. */
function countingPause(onPause: (n: number) => void = () => {}) {
  let pauses = 0
  const pause = () => {
    onPause(++pauses)
    return new Promise<void>((resolve) => setImmediate(resolve))
  }
  return { pause, pauses: () => pauses }
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'engram-graph-save-slices-'))
  dirs.push(dir)
  return dir
}

describe('graph snapshot saves', () => {
  it('give the event loop turns while they encode, and write the bytes an encode in one go makes', async () => {
    const graph = ringGraph()
    // Deleted records: the slices of the compaction (renumbering, scrubbing) run too.
    graph.apply({
      deleteEntities: ['item-p5', 'p7'],
      deleteRelationships: ['k-p9', 'r-p11'],
    })
    const whole = encodeSnapshot(graphToParts(graph))
    const expected = Buffer.concat([whole, createHash('sha256').update(whole).digest()])
    const dir = await tempDir()
    const { pause, pauses } = countingPause()
    const size = await saveGraphSnapshot(graph, dir, pause)
    const file = await readFile(join(dir, 'graph.bin'))
    expect(file.equals(expected)).toBe(true)
    expect(size).toBe(file.length)
    // A dozen arrays of one item per node or edge, three slices or more each.
    expect(pauses()).toBeGreaterThan(3 * 12)
    // The removed relationships are left out (deleted nodes an edge ends at stay, scrubbed).
    expect(graphFromParts(decodeSnapshot(whole)).edgeUuid.length).toBe(graph.edgeUuid.length - 2)
  })

  it('stop, writing nothing, when the graph is written to between two slices', async () => {
    const graph = ringGraph()
    const dir = await tempDir()
    // A write in a turn taken half-way through the encode (the graph grows and changes meanwhile).
    const { pause } = countingPause((n) => {
      if (n === 20)
        graph.apply({
          entities: [entity({ uuid: 'late', labels: ['PERSON'] })],
          relationships: [rel({ uuid: 'late-k', subjectUuid: 'late', objectUuid: 'p0' })],
          deleteEntities: ['p1'],
        })
    })
    const error = await saveGraphSnapshot(graph, dir, pause).catch((e: unknown) => e)
    expect(isChangedDuringSave(error)).toBe(true)
    expect(await readdir(dir)).toEqual([])

    // The caller's own test stops it too (`index-snapshots.ts`: the part's epoch).
    let epoch = 0
    const stopped = await saveGraphSnapshot(
      graph,
      dir,
      countingPause((n) => {
        if (n === 5) epoch++
      }).pause,
      () => epoch !== 0,
    ).catch((e: unknown) => e)
    expect(isChangedDuringSave(stopped)).toBe(true)
    expect(await readdir(dir)).toEqual([])

    // Unchanged meanwhile, the same graph saves.
    await saveGraphSnapshot(graph, dir, countingPause().pause)
    expect(
      graphFromParts(
        decodeSnapshot((await readFile(join(dir, 'graph.bin'))).subarray(0, -32)),
      ).node('late'),
    ).toBeDefined()
  })
})
