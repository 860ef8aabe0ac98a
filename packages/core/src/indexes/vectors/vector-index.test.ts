import { mkdtemp, readFile, rm, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { VectorIndex } from './vector-index.js'
import { loadVectorIndex, saveVectorIndex, syncVectorSnapshot } from './vector-snapshot.js'
import { digestBytes } from '../../digest.js'
import { mulberry32 as prng } from '../../seeded-random.js'

/** Standard normal by Box-Muller. */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

function unit(v: Float32Array): Float32Array {
  let n = 0
  for (const x of v) n += x * x
  return v.map((x) => x / Math.sqrt(n))
}

/**
 * `n` embedding-like vectors: Gaussian noise (σ) around `clusters` random centroids, normalised.
 * Many small clusters with wide noise is the hard, realistic case of the stack notes ("mid").
 */
function clustered(n: number, dim: number, clusters: number, sigma: number, seed: number) {
  const random = prng(seed)
  const centroids = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dim }, () => gaussian(random)),
  )
  return Array.from({ length: n }, () => {
    const c = centroids[Math.floor(random() * clusters)]!
    return unit(c.map((x) => x + sigma * gaussian(random)))
  })
}

const recallAt = (k: number, got: string[], truth: string[]) =>
  got.slice(0, k).filter((id) => truth.slice(0, k).includes(id)).length / k

describe('VectorIndex', () => {
  const dirs: string[] = []
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  it('reaches recall@10 >= 0.98 against exact search at the default ef (20k clustered 64-d)', () => {
    const dim = 64
    // 200 held-out points of the same distribution are the queries.
    const all = clustered(20_200, dim, 1_000, 0.9, 7)
    const data = all.slice(0, 20_000)
    const queries = all.slice(20_000)
    const index = new VectorIndex({ dimension: dim, initialCapacity: 1024 })
    data.forEach((v, i) => index.add(`v${i}`, v))
    expect(index.size).toBe(20_000)

    let recall = 0
    for (const q of queries) {
      const truth = index.exactSearch(q, 10).map((h) => h.id)
      const got = index.search(q, 10).map((h) => h.id)
      recall += recallAt(10, got, truth)
    }
    recall /= queries.length
    expect(recall).toBeGreaterThanOrEqual(0.98)
  })

  it('searches exactly below the threshold and returns cosines best first, ties by id', () => {
    const index = new VectorIndex({ dimension: 3 })
    index.add('b', [1, 0, 0])
    index.add('a', [2, 0, 0]) // normalised on the way in
    index.add('c', [0, 1, 0])
    const hits = index.search([1, 0, 0], 10)
    expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c'])
    expect(hits[0]!.score).toBeCloseTo(1, 6)
    expect(hits[2]!.score).toBeCloseTo(0, 6)
    expect(index.search([1, 0, 0], 10, (id) => id !== 'a').map((h) => h.id)).toEqual(['b', 'c'])
    expect(() => index.search([1, 0], 10)).toThrow(RangeError)
  })

  it('deletes, re-adds an updated id, reuses freed slots and resizes when full', () => {
    const data = clustered(3_000, 16, 30, 0.5, 3)
    // Start tiny so the index has to double several times, and force the HNSW path.
    const index = new VectorIndex({ dimension: 16, initialCapacity: 16, exactBelow: 0 })
    data.forEach((v, i) => index.add(`v${i}`, v))
    expect(index.size).toBe(3_000)
    expect(index.parts().hnsw.getMaxElements()).toBeGreaterThanOrEqual(3_000)

    const target = data[42]!
    expect(index.search(target, 1)[0]).toMatchObject({ id: 'v42' })
    expect(index.remove('v42')).toBe(true)
    expect(index.remove('v42')).toBe(false)
    expect(index.has('v42')).toBe(false)
    expect(index.search(target, 50).map((h) => h.id)).not.toContain('v42')
    expect(index.exactSearch(target, 50).map((h) => h.id)).not.toContain('v42')

    // A new id takes the freed slot: no growth of the graph.
    const slots = index.parts().ids.length
    index.add('fresh', target)
    expect(index.parts().ids.length).toBe(slots)
    expect(index.search(target, 1)[0]).toMatchObject({ id: 'fresh' })

    // Updating an id moves it: found near its new vector, not its old one.
    const moved = data[7]!.map((x) => -x)
    index.add('v1', moved)
    expect(index.search(moved, 1)[0]).toMatchObject({ id: 'v1' })
    expect(index.get('v1')![0]).toBeCloseTo(moved[0]!, 6)
    expect(index.search(data[1]!, 5).map((h) => h.id)).not.toContain('v1')
    expect(index.size).toBe(3_000)
  })

  it('saves and loads a snapshot with the same results, deletes and ids', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-vectors-'))
    dirs.push(dir)
    const data = clustered(2_500, 32, 50, 0.5, 11)
    const index = new VectorIndex({ dimension: 32, ef: 80 })
    data.forEach((v, i) => index.add(`v${i}`, v))
    index.remove('v3')
    index.remove('v4')
    await saveVectorIndex(index, dir)

    const loaded = await loadVectorIndex(dir)
    expect(loaded.size).toBe(index.size)
    expect(loaded.ef).toBe(80)
    expect(loaded.has('v3')).toBe(false)
    for (const q of [data[0]!, data[3]!, data[1234]!]) {
      expect(loaded.search(q, 10)).toEqual(index.search(q, 10))
      expect(loaded.exactSearch(q, 10)).toEqual(index.exactSearch(q, 10))
    }
    expect(Array.from(loaded.get('v9')!)).toEqual(Array.from(index.get('v9')!))

    // The loaded index keeps working: freed slots are reused, and it grows past the saved capacity.
    loaded.add('new', data[3]!)
    expect(loaded.search(data[3]!, 1)[0]).toMatchObject({ id: 'new' })
    const more = clustered(2_000, 32, 50, 0.5, 12)
    more.forEach((v, i) => loaded.add(`m${i}`, v))
    expect(loaded.size).toBe(index.size + 2_001)
    expect(loaded.search(more[5]!, 1)[0]).toMatchObject({ id: 'm5' })

    expect((await loadVectorIndex(dir, { ef: 200 })).ef).toBe(200)
    await expect(loadVectorIndex(join(dir, 'missing'))).rejects.toThrow()
    // A snapshot is only taken for the one it was saved as, and a truncated file is refused.
    await saveVectorIndex(index, dir, { id: 'first' })
    await syncVectorSnapshot(dir)
    expect((await loadVectorIndex(dir, { id: 'first' })).size).toBe(index.size)
    await expect(loadVectorIndex(dir, { id: 'second' })).rejects.toThrow(/'first'/)
    await truncate(join(dir, 'vectors.f32'), 1000)
    await expect(loadVectorIndex(dir, { id: 'first' })).rejects.toThrow(/inconsistent/)
  })

  it('builds the same graph from queued writes as from writes made one by one', async () => {
    const data = clustered(1_500, 16, 20, 0.5, 5)
    const moved = clustered(200, 16, 20, 0.5, 6)
    // Same calls on both: adds past two doublings, updates, deletes, freed slots taken again.
    const run = (index: VectorIndex) => {
      data.forEach((v, i) => index.add(`v${i}`, v))
      for (let i = 0; i < 300; i += 3) index.remove(`v${i}`)
      moved.forEach((v, i) => index.add(`v${i * 5 + 1}`, v))
      moved.forEach((v, i) =>
        index.add(
          `n${i}`,
          v.map((x) => -x),
        ),
      )
      return index
    }
    const options = { dimension: 16, initialCapacity: 512, ef: 20 }
    // One write per replay: the graph as eager writes build it.
    const eager = run(new VectorIndex({ ...options, maxPendingWrites: 1 }))
    const lazy = run(new VectorIndex(options))
    const bounded = run(new VectorIndex({ ...options, maxPendingWrites: 97 }))
    const bytes = async (index: VectorIndex) => {
      const dir = await mkdtemp(join(tmpdir(), 'engram-vectors-'))
      dirs.push(dir)
      await saveVectorIndex(index, dir)
      // Digests: deep equality walks a buffer byte by byte (most of this test's seconds).
      const files = [
        await readFile(join(dir, 'hnsw.bin')),
        await readFile(join(dir, 'vectors.f32')),
      ]
      return files.map(
        (file) => `${file.length} bytes, sha256 ${digestBytes('sha256', file).toString('hex')}`,
      )
    }
    const expected = await bytes(eager)
    expect(await bytes(lazy)).toEqual(expected)
    expect(await bytes(bounded)).toEqual(expected)
    // Approximate search replays the queue too, and finds what the eager graph finds.
    const again = run(new VectorIndex(options))
    for (const q of [data[10]!, moved[3]!, data[999]!])
      expect(again.approximateSearch(q, 10)).toEqual(eager.approximateSearch(q, 10))
  })
})
