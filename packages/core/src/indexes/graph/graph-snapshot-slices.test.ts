import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtures } from '../../../testing/fixtures.js'
import { decodeSnapshot } from '../snapshot-codec.js'
import { SLICE_ITEMS } from '../sliced-work.js'
import { GraphIndex } from './graph-index.js'
import { graphFromParts, loadGraphSnapshot, saveGraphSnapshot } from './graph-snapshot.js'

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
