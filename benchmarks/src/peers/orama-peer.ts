import { create, insertMultiple, search } from '@orama/orama'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { SystemUnderTest } from '../systems/system-under-test.js'

/**
 * Orama 3 (oramasearch/orama, BM25 in src/components/algorithms.ts) full-text mode with its defaults: one string
 * field, English tokenizer, BM25 k1 1.2 b 0.75 d 0.5, `threshold: 1` so documents matching any query term are returned
 * (OR, like the other peers). Orama matches each query token as a PREFIX of indexed words by default (radix-tree
 * `find` with exact=false), so `show` also scores `showed`/`shown`; that costs it quality and latency on SciFact.
 * Its `exact: true` is not a fix: it post-filters to documents containing every term case-sensitively (AND).
 * Orama's hybrid mode needs document vectors, so it is a separate, pending peer until an embedder exists.
 */
export async function createOramaPeer(): Promise<SystemUnderTest> {
  const db = create({ schema: { doc_id: 'string', body: 'string' } as const })
  let documents = 0
  return {
    name: 'orama',
    label: 'Orama 3 (BM25, OR, default prefix matching)',
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      await insertMultiple(
        db,
        docs.map((d) => ({ doc_id: d.id, body: indexText(d) })),
        1000,
      )
      documents += docs.length
    },
    async search(query: string, k: number) {
      const res = await search(db, { term: query, properties: ['body'], limit: k, threshold: 1 })
      return res.hits.map((h) => ({ id: String(h.document.doc_id), score: h.score }))
    },
    stats: () => ({ documents }),
  }
}
