import { l2Normalize } from '@engram/core'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import type { SystemDeps, SystemUnderTest } from '../systems/system-under-test.js'

/**
 * Exact k nearest neighbours by cosine: every document vector is scored against the query (a dot product of
 * unit vectors) and the best k are kept, ties by id. No index, no approximation: over the same vectors as
 * Engram's dense channel, this is the vector limit, the best ranking these embeddings can give. It is a plain
 * loop over a Float32Array, so its latency is that of brute force, not of a tuned library.
 */
export async function createExactKnnPeer({ vectors }: SystemDeps): Promise<SystemUnderTest> {
  const embedder = vectors.embedder()
  const signal = AbortSignal.timeout(60 * 60_000)
  const d = embedder.dimension
  let matrix = new Float32Array(0)
  const ids: string[] = []
  return {
    name: 'exact-knn',
    label: `exact cosine kNN (brute force over the same ${embedder.name} vectors)`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      const embedded = await embedder.embed(docs.map(indexText), signal)
      const grown = new Float32Array((ids.length + docs.length) * d)
      grown.set(matrix)
      embedded.forEach((v, i) => grown.set(l2Normalize(v), (ids.length + i) * d))
      matrix = grown
      ids.push(...docs.map((doc) => doc.id))
    },
    async search(query: string, k: number): Promise<Hit[]> {
      const q = l2Normalize((await embedder.embed([query], signal))[0]!)
      const scores = new Float32Array(ids.length)
      for (let row = 0; row < ids.length; row++) {
        let dot = 0
        const at = row * d
        for (let j = 0; j < d; j++) dot += matrix[at + j]! * q[j]!
        scores[row] = dot
      }
      const order = Array.from(ids.keys()).sort(
        (a, b) => scores[b]! - scores[a]! || (ids[a]! < ids[b]! ? -1 : 1),
      )
      return order.slice(0, k).map((row) => ({ id: ids[row]!, score: scores[row]! }))
    },
    stats: () => ({ documents: ids.length }),
  }
}
