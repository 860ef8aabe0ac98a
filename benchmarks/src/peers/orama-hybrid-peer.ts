import { create, insertMultiple, search } from '@orama/orama'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { Hit } from '../metrics/ranking.js'
import type { SystemDeps, SystemUnderTest } from '../systems/system-under-test.js'

/**
 * Orama 3 hybrid mode (oramasearch/orama, src/methods/search-hybrid.ts) over the same document and query
 * vectors as Engram: its BM25 full-text search (same settings as the `orama` peer: `threshold: 1`, so OR)
 * and its brute-force vector search, each score divided by the list's maximum, merged as 0.5·text +
 * 0.5·vector (its default `hybridWeights`). `similarity: -1` switches off the vector side's default cosine
 * threshold of 0.8, which would otherwise drop most documents (use-lite cosines of related texts are often
 * below 0.8), so the vector side ranks every document, as exact kNN does.
 */
export async function createOramaHybridPeer({ vectors }: SystemDeps): Promise<SystemUnderTest> {
  const embedder = vectors.embedder()
  const signal = AbortSignal.timeout(60 * 60_000)
  const db = create({
    schema: {
      doc_id: 'string',
      body: 'string',
      embedding: `vector[${embedder.dimension}]`,
    } as const,
  })
  let documents = 0
  return {
    name: 'orama-hybrid',
    label: `Orama 3 hybrid (BM25 OR + vector, weights 0.5/0.5, same ${embedder.name} vectors)`,
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      const texts = docs.map(indexText)
      const embedded = await embedder.embed(texts, signal)
      await insertMultiple(
        db,
        docs.map((d, i) => ({
          doc_id: d.id,
          body: texts[i]!,
          embedding: Array.from(embedded[i]!),
        })),
        1000,
      )
      documents += docs.length
    },
    async search(query: string, k: number): Promise<Hit[]> {
      const vector = (await embedder.embed([query], signal))[0]!
      const res = await search(db, {
        mode: 'hybrid',
        term: query,
        vector: { value: vector, property: 'embedding' },
        properties: ['body'],
        similarity: -1,
        threshold: 1,
        limit: k,
      })
      return res.hits.map((h) => ({ id: String(h.document.doc_id), score: h.score }))
    },
    stats: () => ({ documents }),
  }
}
