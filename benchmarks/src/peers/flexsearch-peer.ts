import FlexSearch from 'flexsearch'
import { indexText, type BenchDoc } from '../loaders/dataset-types.js'
import type { SystemUnderTest } from '../systems/system-under-test.js'

/**
 * FlexSearch 0.8 (nextapps-de/flexsearch) `Index` with `tokenize: 'strict'` and `suggest: true` (so a document
 * matching only some query terms is still returned, i.e. OR-like). FlexSearch returns ids without scores
 * (stack-notes §3: `resolve:false` gives rank buckets, not numbers), so this peer reports score = 1/rank:
 * its nDCG/recall are those of its ranking; its scores mean nothing beyond the order.
 */
export async function createFlexSearchPeer(): Promise<SystemUnderTest> {
  const index = new FlexSearch.Index({ tokenize: 'strict' })
  const ids: string[] = []
  return {
    name: 'flexsearch',
    label: 'FlexSearch 0.8 (strict, suggest; rank only, no scores)',
    scored: false,
    async index(docs: readonly BenchDoc[]) {
      for (const d of docs) {
        index.add(ids.length, indexText(d))
        ids.push(d.id)
      }
    },
    async search(query: string, k: number) {
      const found = index.search(query, { limit: k, suggest: true }) as number[]
      return found.map((n, i) => ({ id: ids[n]!, score: 1 / (i + 1) }))
    },
    stats: () => ({ documents: ids.length }),
  }
}
