import type { WriteBatch } from '../../src/contracts/storage-adapter.js'
import { BrainIndexes } from '../../src/indexes/brain-indexes.js'
import { memoryAdapter } from '../../src/memory-adapter/index.js'
import type { RetrieveDeps } from '../../src/retrieve/retrieve-deps.js'
import { builtinCandidateSource } from '../../src/search/search-candidates.js'
import { fixtures } from '../../testing/fixtures.js'

/**
 * What a graph retrieval operation reads, over a fresh memory-adapter brain `b` holding `batch`: its
 * store, its indexes built, the built-in candidate source, and no embedder nor vectors (graph and
 * lexical signals only). `overrides` pin what a test is about, such as a clock (`now`) or a vector
 * reader.
 */
export async function memoryRetrieveDeps(
  batch: WriteBatch,
  overrides: Partial<RetrieveDeps> = {},
): Promise<RetrieveDeps> {
  const adapter = memoryAdapter()
  await adapter.open()
  await adapter.catalog.create(fixtures.brain('b'))
  const store = await adapter.brain('b')
  await store.apply(batch)
  const indexes = await BrainIndexes.build(store)
  const readers = { brainId: 'b', store, indexes, vectors: null, embed: null }
  return { ...readers, candidates: builtinCandidateSource(readers), ...overrides }
}
