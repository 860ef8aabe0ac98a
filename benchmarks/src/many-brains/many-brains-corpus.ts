import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Passage, SearchRequest, VectorRecord } from '@engram/core'
import { loadBeir } from '../loaders/beir.js'
import { indexText, type BenchDoc, type BenchQuery } from '../loaders/dataset-types.js'
import type { DiskVectorCache } from '../vectors/disk-vector-cache.js'
import { docToPassage } from '../systems/engine-brain.js'

/** Issue 13's many-brains check: 2,000 brains of 200 passages each under INDEX_MEMORY_MB=512. */
export const MANY_BRAINS_DEFAULT = { brains: 2000, passages: 200 } as const
export const MANY_BRAINS_BUDGET_MB = 512

export interface ManyBrainsShape {
  readonly brains: number
  readonly passages: number
}

/** Distance between the first documents of consecutive brains (a prime, so windows wrap unevenly). */
const STRIDE = 997

export const manyBrainId = (i: number) => `mb${String(i).padStart(5, '0')}`

/** SciFact's corpus and its test queries (the queries each brain is searched with). */
export function loadScifact(datasetsDir: string): {
  docs: readonly BenchDoc[]
  queries: readonly BenchQuery[]
} {
  const group = loadBeir(join(datasetsDir, 'scifact'), 'scifact', 'test').groups[0]!
  return { docs: group.docs, queries: group.queries }
}

/** The documents of brain `i`: `passages` consecutive SciFact documents from its own offset, wrapping. */
export function brainDocs(docs: readonly BenchDoc[], i: number, passages: number): BenchDoc[] {
  if (passages > docs.length)
    throw new Error(`${passages} passages per brain; SciFact has ${docs.length} documents`)
  const start = (i * STRIDE) % docs.length
  return Array.from({ length: passages }, (_, j) => docs[(start + j) % docs.length]!)
}

/** Brain `i`'s passages and their vectors (from the cache the parent filled), as one write batch. */
export function brainBatch(
  docs: readonly BenchDoc[],
  i: number,
  passages: number,
  cache: DiskVectorCache,
): { passages: Passage[]; vectors: VectorRecord[] } {
  const mine = brainDocs(docs, i, passages)
  const at = new Date(0).toISOString()
  return {
    passages: mine.map((d, j) => docToPassage(d, j, at)),
    vectors: mine.map((d) => {
      const vector = cache.get(indexText(d))
      if (vector === undefined) throw new Error(`no cached vector for SciFact document ${d.id}`)
      return { space: 'passages', id: d.id, vector }
    }),
  }
}

/** A hybrid search (BM25 + dense over passages, rrf, k = 10) with a SciFact query. */
export function manyBrainsRequest(query: string): SearchRequest {
  return {
    query,
    k: 10,
    channels: ['passages'],
    expand: 'none',
    fusion: 'rrf',
    rerank: 'none',
    profileStages: false,
  }
}

/** The file in the run's data directory that hands the serving process its query vectors. */
const QUERY_VECTORS_FILE = 'query-vectors.json'

/**
 * Writes the query vectors (from the benchmark vector cache, in the parent) for the serving process to
 * read with `readQueryVectors`: the cache holds every text any benchmark embedded (tens of MB on disk,
 * several times that loaded), and loaded in the measured process it would count as the engine's memory.
 */
export function writeQueryVectors(
  dir: string,
  texts: readonly string[],
  vectors: readonly Float32Array[],
): void {
  const queries = texts.map((text, i) => ({ text, vector: Array.from(vectors[i]!) }))
  writeFileSync(join(dir, QUERY_VECTORS_FILE), JSON.stringify(queries))
}

/** The query vectors `writeQueryVectors` wrote, by text. */
export function readQueryVectors(dir: string): Map<string, Float32Array> {
  const queries = JSON.parse(readFileSync(join(dir, QUERY_VECTORS_FILE), 'utf8')) as {
    text: string
    vector: number[]
  }[]
  return new Map(queries.map(({ text, vector }) => [text, Float32Array.from(vector)]))
}
