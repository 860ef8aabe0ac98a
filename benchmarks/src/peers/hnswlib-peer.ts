import hnswlib from 'hnswlib-node'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import type { SystemDeps, SystemUnderTest } from '../systems/system-under-test.js'

/**
 * HNSW parameters, equal to Engram's `VECTOR_INDEX_DEFAULTS` so the comparison isolates what the engine adds
 * around the graph (hnswlib's own default ef of 10 would trade recall for speed). Malkov & Yashunin, IEEE TPAMI
 * 2018; hnswlib-node 3 wraps nmslib/hnswlib.
 */
const M = 16
const EF_CONSTRUCTION = 200
const EF = 100
const SEED = 100

/**
 * Raw `hnswlib-node`: one `HierarchicalNSW` in cosine space over the same vectors Engram's dense channel
 * indexes, labels being insertion order. Score = 1 - cosine distance. With Engram's VectorIndex above its
 * exact-search threshold, the difference between the two is the engine (ids, exact rescoring, the pipeline).
 */
export async function createHnswlibPeer({ vectors }: SystemDeps): Promise<SystemUnderTest> {
  const embedder = vectors.embedder()
  const signal = AbortSignal.timeout(60 * 60_000)
  const index = new hnswlib.HierarchicalNSW('cosine', embedder.dimension)
  let capacity = 0
  const ids: string[] = []
  return {
    name: 'hnswlib-raw',
    label: `hnswlib-node 3 HNSW (cosine, M ${M}, efConstruction ${EF_CONSTRUCTION}, ef ${EF})`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      const embedded = await embedder.embed(docs.map(indexText), signal)
      if (capacity === 0) {
        capacity = Math.max(16, docs.length)
        index.initIndex({
          maxElements: capacity,
          m: M,
          efConstruction: EF_CONSTRUCTION,
          randomSeed: SEED,
        })
        index.setEf(EF)
      } else if (ids.length + docs.length > capacity) {
        capacity = ids.length + docs.length
        index.resizeIndex(capacity)
      }
      embedded.forEach((v, i) => index.addPoint(Array.from(v), ids.length + i))
      ids.push(...docs.map((d) => d.id))
    },
    async search(query: string, k: number): Promise<Hit[]> {
      const n = Math.min(k, ids.length)
      if (n === 0) return []
      const q = (await embedder.embed([query], signal))[0]!
      const { neighbors, distances } = index.searchKnn(Array.from(q), n)
      return neighbors
        .map((label, i) => ({ id: ids[label]!, score: 1 - distances[i]! }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    },
    stats: () => ({ documents: ids.length }),
  }
}
