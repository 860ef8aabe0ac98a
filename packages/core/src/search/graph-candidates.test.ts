import { describe, expect, it } from 'vitest'
import type { Candidate, VectorReader } from '../contracts/search-plugins.js'
import { fuseByConvexCombination } from '../builtins/fusions/convex-combination.js'
import { fusionCalibrationFor } from './fusion-calibration.js'
import { BrainIndexes } from '../indexes/brain-indexes.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import { builtinCandidateSource } from './search-candidates.js'

const AT = '2025-01-01T00:00:00.000Z'
const passage = (id: string, text: string): Passage => ({
  id,
  text,
  metadata: {},
  insertedAt: AT,
  brainVersion: 't',
  source: null,
  position: 0,
  start: 0,
  end: text.length,
})
const entity = (uuid: string, name: string, labels: string[]): Entity => ({
  uuid,
  name,
  description: null,
  labels,
  properties: {},
  metadata: null,
  happenedAt: null,
  lastUpdated: AT,
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
})

/** A vector reader answering fixed lists, whatever the vector (and recording the filters it got). */
function fixedVectors(lists: Record<string, Candidate[]>, filters: unknown[]): VectorReader {
  return {
    async search(space, _vector, k, filter) {
      filters.push(filter)
      return (lists[space] ?? []).filter((c) => filter?.(c.id) ?? true).slice(0, k)
    },
    async get() {
      return new Map()
    },
  }
}

async function brain() {
  const adapter = memoryAdapter()
  await adapter.open()
  await adapter.catalog.create({
    id: 'b',
    nameKey: 'b',
    tokenHash: 'x',
    tokenLast4: 'xxxx',
    createdAt: AT,
  })
  const store = await adapter.brain('b')
  await store.apply({
    passages: [
      passage('p1', 'pizza in naples'),
      passage('p2', 'pizza and pasta'),
      passage('p3', 'a harbour at dawn'),
    ],
    entities: [
      entity('alice', 'Alice pizza', ['PERSON']),
      entity('bob', 'Bob pizza', ['PERSON']),
      entity('ev', 'pizza party', ['EVENT']),
    ],
  })
  return { store, indexes: await BrainIndexes.build(store) }
}

// The graph operations' default lists (passage BM25 + dense; entity BM25 + raw entity vectors), fused
// by the default fusion, cc with the weights of the brain (no embedder recorded here: `none`).
const fuseDefault = (lists: Parameters<typeof fuseByConvexCombination>[0]) =>
  fuseByConvexCombination(lists, fusionCalibrationFor(null, null))
describe('graph candidates from the search pipeline', () => {
  it('passages: BM25 then dense, fused by the default fusion', async () => {
    const { store, indexes } = await brain()
    const dense = {
      passages: [
        { id: 'p3', score: 0.9 },
        { id: 'p2', score: 0.5 },
      ],
    }
    const vectors = fixedVectors(dense, [])
    const embed = async () => Float32Array.from([1, 0])
    const source = builtinCandidateSource({ brainId: 'b', store, indexes, vectors, embed })
    const expected = fuseDefault([
      { name: 'bm25', signal: 'bm25', items: indexes.passages.search('pizza', 50) },
      { name: 'dense', signal: 'dense', items: dense.passages },
    ])
    expect(await source('passages', 'pizza', 50)).toEqual(expected)
  })

  it('hop seeds: entity BM25 then the raw nearest entity vectors (events included)', async () => {
    const { store, indexes } = await brain()
    const filters: unknown[] = []
    const dense = {
      entities: [
        { id: 'ev', score: 0.9 },
        { id: 'gone', score: 0.8 },
      ],
    }
    const vectors = fixedVectors(dense, filters)
    const embed = async () => Float32Array.from([1, 0])
    const source = builtinCandidateSource({ brainId: 'b', store, indexes, vectors, embed })
    const expected = fuseDefault([
      { name: 'entities', signal: 'graph', items: indexes.entities.search('pizza', 10) },
      { name: 'dense', signal: 'dense', items: dense.entities },
    ])
    expect(await source('seeds', 'pizza', 10)).toEqual(expected)
    expect(filters).toEqual([undefined])
  })

  it('without vectors: BM25 alone, in BM25 order', async () => {
    const { store, indexes } = await brain()
    const source = builtinCandidateSource({
      brainId: 'b',
      store,
      indexes,
      vectors: null,
      embed: null,
    })
    const bm25 = indexes.passages.search('pizza', 50)
    const fused = await source('passages', 'pizza', 50)
    expect(fused.map((c) => c.id)).toEqual(bm25.map((c) => c.id))
    expect(fused).toEqual(fuseDefault([{ name: 'bm25', signal: 'bm25', items: bm25 }]))
  })
})
