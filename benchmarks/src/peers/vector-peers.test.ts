import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BenchDoc } from '../loaders/dataset-types.js'
import { benchVectors } from '../vectors/bench-vectors.js'
import { testEmbedder } from '../vectors/test-embedder.js'
import { createExactKnnPeer } from './exact-knn-peer.js'
import { createHnswlibPeer } from './hnswlib-peer.js'
import { createOramaHybridPeer } from './orama-hybrid-peer.js'

const docs: BenchDoc[] = [
  { id: 'd1', title: 'Zebrafish', text: 'zebrafish fins regenerate after injury' },
  { id: 'd2', title: 'Kinase', text: 'kinase inhibitors slow tumour growth' },
  { id: 'd3', title: 'Sleep', text: 'sleep deprivation impairs memory' },
  { id: 'd4', text: 'memory consolidation happens during sleep' },
]

const deps = () => ({
  vectors: benchVectors({
    cacheDir: mkdtempSync(join(tmpdir(), 'engram-vector-peers-')),
    create: () => testEmbedder('bow', 32),
  }),
})

describe('vector peers (test embedder, same vectors for all)', () => {
  for (const create of [createExactKnnPeer, createHnswlibPeer, createOramaHybridPeer]) {
    it(`${create.name} indexes, ranks the matching document first, and cuts to k`, async () => {
      const peer = await create(deps())
      await peer.index(docs.slice(0, 2))
      await peer.index(docs.slice(2))
      expect(peer.stats().documents).toBe(4)
      const hits = await peer.search('zebrafish fins regenerate', 3)
      expect(hits[0]?.id).toBe('d1')
      expect(hits.length).toBeLessThanOrEqual(3)
      expect(hits.every((h, i) => i === 0 || h.score <= hits[i - 1]!.score)).toBe(true)
    })
  }

  it('HNSW over four vectors returns the exact ranking', async () => {
    const d = deps()
    const exact = await createExactKnnPeer(d)
    const hnsw = await createHnswlibPeer(d)
    await exact.index(docs)
    await hnsw.index(docs)
    const a = await exact.search('sleep and memory', 4)
    const b = await hnsw.search('sleep and memory', 4)
    expect(b.map((h) => h.id)).toEqual(a.map((h) => h.id))
    b.forEach((h, i) => expect(h.score).toBeCloseTo(a[i]!.score, 5))
  })
})
