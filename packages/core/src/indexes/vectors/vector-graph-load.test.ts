import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type hnswlib from 'hnswlib-node'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { damageLinkLists } from './damage-hnsw.test-helper.js'
import { VectorIndex } from './vector-index.js'
import { loadVectorIndex, saveVectorIndex } from './vector-snapshot.js'
import { mulberry32 as prng } from '../../seeded-random.js'

const DIM = 32
/** Above the default `exactBelow` (2,000): searches of a loaded graph take HNSW. */
const N = 2_500

const random = prng(29)
const data = Array.from({ length: N }, () =>
  Float32Array.from({ length: DIM }, () => random() - 0.5),
)
const queries = [data[0]!, data[777]!, data[2_222]!, data[N - 1]!]

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** An index of `data`, saved to a new directory. */
async function saved(): Promise<{ index: VectorIndex; dir: string }> {
  const index = new VectorIndex({ dimension: DIM })
  data.forEach((v, i) => index.add(`v${i}`, v))
  const dir = await mkdtemp(join(tmpdir(), 'engram-graph-load-'))
  dirs.push(dir)
  await saveVectorIndex(index, dir)
  return { index, dir }
}

describe('VectorIndex with its graph still loading', () => {
  it('answers with the exact top-k during the load, then searches through the graph', async () => {
    const { index, dir } = await saved()
    const parts = (await loadVectorIndex(dir)).parts()
    let graphRead!: (hnsw: hnswlib.HierarchicalNSW) => void
    const loading = new VectorIndex(
      { dimension: DIM },
      { ...parts, hnsw: new Promise((resolve) => (graphRead = resolve)) },
    )
    const searchKnn = vi.spyOn(parts.hnsw, 'searchKnn')
    expect(loading.graphLoaded).toBe(false)
    for (const q of queries) expect(loading.search(q, 10)).toEqual(index.exactSearch(q, 10))
    expect(loading.approximateSearch(queries[0]!, 5)).toEqual(index.exactSearch(queries[0]!, 5))
    expect(() => loading.parts()).toThrow(/not loaded/)
    // A write during the load is searchable at once, and queued for the graph.
    const late = queries[1]!.map((x) => -x)
    loading.add('late', late)
    expect(loading.search(late, 1)[0]).toMatchObject({ id: 'late' })
    expect(searchKnn).not.toHaveBeenCalled()

    graphRead(parts.hnsw)
    await loading.graphReady
    expect(loading.graphLoaded).toBe(true)
    for (const q of queries) expect(loading.search(q, 10)).toEqual(index.approximateSearch(q, 10))
    expect(searchKnn).toHaveBeenCalledTimes(queries.length)
    // The queued write was replayed into the graph before its first search.
    expect(loading.search(late, 1)[0]).toMatchObject({ id: 'late' })
    expect(searchKnn).toHaveBeenCalledTimes(queries.length + 1)
  })

  it('is what `loadVectorIndex` returns with `graphInBackground`, the graph following', async () => {
    const { index, dir } = await saved()
    const loaded = await loadVectorIndex(dir, { graphInBackground: true })
    expect(loaded.size).toBe(N)
    // Exact or approximate depending on how far hnswlib got: never missing the query's own vector.
    expect(loaded.search(queries[2]!, 1)[0]).toMatchObject({ id: 'v2222' })
    await loaded.graphReady
    expect(loaded.graphLoaded).toBe(true)
    for (const q of queries) expect(loaded.search(q, 10)).toEqual(index.approximateSearch(q, 10))
  })

  it('stays exact when hnswlib refuses the graph, and is never saved', async () => {
    const { index, dir } = await saved()
    await damageLinkLists(join(dir, 'hnsw.bin'))
    await expect(loadVectorIndex(dir)).rejects.toThrow(/corrupted/)
    const loaded = await loadVectorIndex(dir, { graphInBackground: true })
    await expect(loaded.graphReady).rejects.toThrow(/corrupted/)
    expect(loaded.graphLoaded).toBe(false)
    for (const q of queries) expect(loaded.search(q, 10)).toEqual(index.exactSearch(q, 10))
    await expect(saveVectorIndex(loaded, join(dir, 'again'))).rejects.toThrow(/corrupted/)
  })

  it('replays queued graph writes with a pause after each (`flushGraph`)', async () => {
    const index = new VectorIndex({ dimension: DIM })
    data.slice(0, 100).forEach((v, i) => index.add(`v${i}`, v))
    let pauses = 0
    await index.flushGraph(() => {
      pauses++
      return undefined
    })
    expect(pauses).toBe(100)
    await index.flushGraph(() => {
      pauses++
      return undefined
    })
    expect(pauses).toBe(100)
    expect(index.approximateSearch(data[5]!, 1)[0]).toMatchObject({ id: 'v5' })
  })
})
