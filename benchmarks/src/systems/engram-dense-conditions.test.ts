import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseBenchConfig } from '../config/bench-config.js'
import type { BenchDoc } from '../loaders/dataset-types.js'
import { benchVectors } from '../vectors/bench-vectors.js'
import { testEmbedder } from '../vectors/test-embedder.js'
import { resolveEngramSystem } from './engram-system.js'

const docs: BenchDoc[] = [
  { id: 'd1', title: 'Zebrafish', text: 'zebrafish fins regenerate after injury' },
  { id: 'd2', title: 'Kinase', text: 'kinase inhibitors slow tumour growth' },
  { id: 'd3', title: 'Sleep', text: 'sleep deprivation impairs memory' },
]

function config(condition: string, engine: string) {
  return parseBenchConfig(
    `scifact.${condition}`,
    `dataset: scifact\ncondition: ${condition}\nengine: ${engine}\nmetrics: [nDCG@10]\n`,
  )
}

async function engram(condition: string, engine: string) {
  const resolution = await resolveEngramSystem(config(condition, engine))
  if (!resolution.ready) throw new Error(resolution.missing)
  expect(resolution.usesVectors).toBe(true)
  const inner = testEmbedder('bow', 32)
  const vectors = benchVectors({
    cacheDir: mkdtempSync(join(tmpdir(), 'engram-dense-conditions-')),
    create: () => inner,
  })
  const system = await resolution.create({ vectors })
  await system.index(docs)
  return { system, inner }
}

describe('Engram dense conditions through the engine (test embedder)', () => {
  it('dense alone runs the dense-only plugin channel: every passage ranked by cosine, no BM25', async () => {
    const { system, inner } = await engram(
      'dense',
      '{ channels: [dense], fusion: null, embedder: default }',
    )
    const hits = await system.search('zebrafish regenerate', 10)
    // Dense retrieval has no "no match": every passage comes back, best first, scored by cosine.
    expect(hits.map((h) => h.id)).toHaveLength(3)
    expect(hits[0]!.id).toBe('d1')
    const [q, d1] = await inner.embed(
      ['zebrafish regenerate', 'Zebrafish zebrafish fins regenerate after injury'],
      AbortSignal.timeout(1_000),
    )
    const cosine = q!.reduce((sum, x, i) => sum + x * d1![i]!, 0)
    expect(hits[0]!.score).toBeCloseTo(cosine, 5)
    await system.close?.()
  })

  for (const [condition, engine] of [
    ['rrf', '{ channels: [passages, dense], fusion: { name: rrf, k: 60 }, embedder: default }'],
    ['cc', '{ channels: [passages, dense], fusion: { name: cc, alpha: 0.3 }, embedder: default }'],
    [
      'rrf-dense-rerank',
      "{ channels: [passages, dense], fusion: { name: rrf }, stages: ['rerank:plugin:dense'], embedder: default }",
    ],
  ] as const) {
    it(`${condition}: BM25 and dense lists fused by the engine`, async () => {
      const { system } = await engram(condition, engine)
      const hits = await system.search('kinase inhibitors', 10)
      expect(hits[0]!.id).toBe('d2')
      // Dense retrieval returns every passage, so the fused list holds all three.
      expect(hits).toHaveLength(3)
      await system.close?.()
    })
  }

  it('an embedder the harness cannot serve leaves the condition pending', async () => {
    const r = await resolveEngramSystem(config('dense', '{ channels: [dense], embedder: openai }'))
    expect(r).toMatchObject({ ready: false, missing: expect.stringMatching(/use-lite/) })
  })
})
