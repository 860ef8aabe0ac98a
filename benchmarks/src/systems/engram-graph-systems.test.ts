import type { Embedder } from '@engram/core'
import { describe, expect, it } from 'vitest'
import { loadBenchConfig, parseBenchConfig } from '../config/bench-config.js'
import type { BenchDoc } from '../loaders/dataset-types.js'
import { configsDir } from '../paths.js'
import { resolvePeer } from '../peers/peer-registry.js'
import { createEngramContextPackSystem, packPassageIds } from './engram-context-pack-system.js'
import { GRAPH_ADAPTERS } from './engram-graph-adapters.js'
import { createEngramGraphSearchSystem, engineRequest } from './engram-graph-search-system.js'
import { engramConditionKey, resolveEngramSystem } from './engram-system.js'

const docs: BenchDoc[] = [
  { id: 'd1', text: 'Emily: I organized the AI Ethics Meetup in London yesterday.' },
  { id: 'd2', text: 'Tom: Great, I met Sarah at the museum.' },
  { id: 'd3', text: 'Emily: I flew from London to Paris last week.' },
  { id: 'd4', text: 'Sarah: My dog Rex loves the beach in Brighton.' },
]

/** Bag of hashed words in 16 dimensions, unit length: a stand-in so tests never load the model. */
const fakeEmbedder: Embedder = {
  kind: 'embedder',
  name: 'fake-bag',
  dimension: 16,
  async embed(texts) {
    return texts.map((t) => {
      const v = new Float32Array(16)
      for (const w of t.toLowerCase().match(/[a-z]+/g) ?? [])
        v[[...w].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 16, 7)]! += 1
      const norm = Math.hypot(...v) || 1
      return v.map((x) => x / norm)
    })
  },
}

const config = (engine: string, name = 'toy.graph') =>
  parseBenchConfig(name, `dataset: toy\ncondition: graph\nengine: ${engine}\nmetrics: [R@5]\n`)

describe('graph adapters', () => {
  it.each([
    'locomo-dev.hybrid-entities-events',
    'locomo-dev.context-pack',
    'musique-100.hybrid-neighbours',
    'musique-100.context-pack',
  ])('%s resolves to an ingestion-pipeline adapter on the run vectors', async (name) => {
    const c = loadBenchConfig(configsDir, name)
    expect(c.pending).toBeNull()
    expect(GRAPH_ADAPTERS[engramConditionKey(c)]).toBeDefined()
    expect(await resolveEngramSystem(c)).toMatchObject({ ready: true, usesVectors: true })
  })

  it('builds the engine request: dense folded into passages, expansion, lexical without dense', () => {
    const hybrid = config(
      '{ channels: [passages, dense, entities], fusion: { name: rrf }, stages: [neighbour-expansion], embedder: default }',
    )
    expect(engineRequest(hybrid, 'q', 10)).toMatchObject({
      k: 50,
      channels: ['passages', 'entities'],
      expand: 'neighbors',
      fusion: 'rrf',
      lexicalOnly: false,
    })
    const lexical = config('{ channels: [passages, events], fusion: { name: rrf } }')
    expect(engineRequest(lexical, 'q', 80)).toMatchObject({
      k: 80,
      expand: 'none',
      rerank: 'none',
      lexicalOnly: true,
    })
    const covered = config(
      "{ channels: [passages], stages: [neighbour-expansion, 'rerank:plugin:coverage'] }",
    )
    expect(engineRequest(covered, 'q', 10)).toMatchObject({
      expand: 'neighbors',
      rerank: 'plugin:coverage',
    })
  })

  it('resolves graph and pack ablation peers by name, and names the known ones otherwise', () => {
    const c = loadBenchConfig(configsDir, 'musique-100.context-pack')
    expect(resolvePeer('engram-pack:no-coverage', c)).toMatchObject({ ready: true })
    expect(resolvePeer('engram-graph:coverage', c)).toMatchObject({ ready: true })
    expect(() => resolvePeer('engram-pack:nope', c)).toThrow(/engram-pack:no-coverage/)
  })
})

describe('graph search system', () => {
  it('returns each document once, ranked from passage, entity and event hits', async () => {
    const c = config(
      '{ channels: [passages, dense, entities, events], fusion: { name: rrf }, embedder: default }',
    )
    const system = await createEngramGraphSearchSystem(c, fakeEmbedder)
    try {
      await system.index(docs)
      expect(system.stats().documents).toBe(4)
      const hits = await system.search('London Paris', 3)
      expect(hits.length).toBeLessThanOrEqual(3)
      expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length)
      expect(hits.every((h) => docs.some((d) => d.id === h.id))).toBe(true)
      expect(hits[0]!.id).toBe('d3')
    } finally {
      await system.close?.()
    }
  })
})

describe('context pack system', () => {
  it('reads source_passages first, then the triples’ source chunks', () => {
    expect(
      packPassageIds({
        sourcePassageIds: ['p2', 'p1'],
        triples: [{ sourceChunkIds: ['p1', 'p7'] }, { sourceChunkIds: ['p9'] }],
      } as Parameters<typeof packPassageIds>[0]),
    ).toEqual(['p2', 'p1', 'p1', 'p7', 'p9'])
  })

  it('scores the pack of the real contextPack as dataset documents', async () => {
    const c = config(
      '{ channels: [passages, entities, events], fusion: { name: rrf }, stages: [context-pack] }',
    )
    const system = await createEngramContextPackSystem(c, null)
    try {
      await system.index(docs)
      const hits = await system.search('Where did Emily fly from London?', 100)
      expect(hits.map((h) => h.id)).toContain('d3')
      expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length)
      expect((await system.search('Where did Emily fly from London?', 1)).length).toBe(1)
    } finally {
      await system.close?.()
    }
  })
})
