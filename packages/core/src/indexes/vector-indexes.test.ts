import { describe, expect, it } from 'vitest'
import type { BrainStore } from '../contracts/storage-adapter.js'
import type { VectorRecord } from '../contracts/vector-repository.js'
import { VectorIndexes } from './vector-indexes.js'

const DIM = 8
/** Past the default `exactBelow` (2,000): the index's searches take the graph. */
const N = 2_300

const vector = (i: number) => Float32Array.from({ length: DIM }, (_, j) => Math.sin(i * 7 + j * 3))
const records: VectorRecord[] = Array.from({ length: N }, (_, i) => ({
  space: 'passages',
  id: `p${String(i).padStart(5, '0')}`,
  vector: vector(i),
}))

/** A store with only `vectors.scan` (all a vector build reads), over `records`. */
/** Like none of `records` (which repeat nearly, the sine being periodic). */
const odd = Float32Array.from({ length: DIM }, (_, j) => (j === 0 ? 5 : -1))

const store = {
  vectors: {
    scan: (space: string, after: string | null, limit: number) =>
      Promise.resolve(
        space === 'passages'
          ? records.filter((r) => after === null || r.id > after).slice(0, limit)
          : [],
      ),
  },
} as unknown as BrainStore

describe('VectorIndexes', () => {
  it('leaves no graph write queued past exactBelow: builds and batches replay them as they go', async () => {
    const indexes = new VectorIndexes({ isEntity: () => false })
    let pauses = 0
    const pause = () => {
      pauses++
      return undefined
    }
    await indexes.build(store, pause)
    const index = indexes.spaces.get('passages')!
    expect(index.size).toBe(N)
    // Nothing left for a search or a save to replay in one go.
    const before = pauses
    await index.flushGraph(pause)
    expect(pauses).toBe(before)

    await indexes.apply({ vectors: [{ space: 'passages', id: 'new', vector: odd }] }, pause)
    await index.flushGraph(() => {
      throw new Error('a graph write was still queued')
    })
    expect(index.approximateSearch(odd, 1)[0]).toMatchObject({ id: 'new' })
  })
})
