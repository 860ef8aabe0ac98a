import MiniSearch from 'minisearch'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { SystemUnderTest } from '../systems/system-under-test.js'

/**
 * MiniSearch 7 (lucaong/minisearch, BM25+ scoring in src/MiniSearch.ts): one text field, default tokenizer
 * and lowercasing, OR of the query terms, no prefix or fuzzy matching (plain lexical baseline).
 */
export async function createMiniSearchPeer(): Promise<SystemUnderTest> {
  const ms = new MiniSearch<{ id: string; text: string }>({ fields: ['text'], storeFields: [] })
  let documents = 0
  return {
    name: 'minisearch',
    label: 'MiniSearch 7 (BM25+, OR)',
    scored: true,
    async index(docs: readonly BenchDoc[]) {
      ms.addAll(docs.map((d) => ({ id: d.id, text: indexText(d) })))
      documents += docs.length
    },
    async search(query: string, k: number) {
      return ms
        .search(query, { combineWith: 'OR', prefix: false, fuzzy: false })
        .slice(0, k)
        .map((r) => ({ id: String(r.id), score: r.score }))
    },
    stats: () => ({ documents }),
  }
}
