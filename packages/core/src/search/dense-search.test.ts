import { describe, expect, it } from 'vitest'
import type { Embedder } from '../contracts/embedder.js'
import type { FusionCalibration } from '../contracts/search-plugins.js'
import { createEngine } from '../engine/create-engine.js'
import { EngramError } from '../errors.js'
import { INGEST_TEXT, type TextIngestPayload } from '../ingest/ingest-payloads.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { SearchResponse } from '../model/search.js'
import type { SearchRequest } from './search-request.js'
import { hashingTestEmbedder } from '../../testing/index.js'

const DIM = 64

/**
 * TEST ONLY: `@engram/core/testing`'s hashing bag-of-words embedder (64 signed buckets, normalised),
 * counting the texts it embeds.
 */
function hashingBagOfWordsTestEmbedder(): Embedder & { calls: number } {
  const inner = hashingTestEmbedder(DIM)
  const embedder = {
    ...inner,
    calls: 0,
    async embed(texts: string[], signal: AbortSignal) {
      embedder.calls += texts.length
      return inner.embed(texts, signal)
    },
  }
  return embedder
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0)
const signal = AbortSignal.timeout(60_000)

/** Stage names and call counts of a profiled response. */
const stagesOf = (res: SearchResponse) =>
  (res.stageTimings as { stages: { stage: string; calls: number }[] }).stages

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
const request = (o: Partial<SearchRequest>): SearchRequest => ({
  query: 'x',
  k: 10,
  channels: ['passages'],
  expand: 'none',
  fusion: 'rrf',
  rerank: 'none',
  profileStages: false,
  ...o,
})

const TEXTS: Record<string, string> = {
  p1: 'The river bank flooded after heavy rain in the valley.',
  p2: 'She opened a savings account at the bank on Monday.',
  p3: 'Heavy rain and strong wind closed the mountain road.',
  p4: 'The bank raised interest rates on savings and loans.',
  p5: 'Rain fell on the river all night and the valley flooded.',
  p6: 'A quiet walk along the river bank at sunset.',
  p7: 'Loans from the bank paid for the new bakery.',
  p8: 'Bicycles and mountains and long summer days.',
}
const ENTITIES = [
  entity('e-river', 'River Thames', ['PLACE']),
  entity('e-bank', 'Central Bank', ['ORGANIZATION']),
  entity('e-rain', 'Heavy rain', ['WEATHER']),
  entity('e-flood', 'Valley flood', ['EVENT']),
]

async function setup(options: { embedder?: boolean; fusion?: FusionCalibration } = {}) {
  const embedder = Object.assign(
    hashingBagOfWordsTestEmbedder(),
    options.fusion ? { fusion: options.fusion } : {},
  )
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 't',
    ...(options.embedder === false ? {} : { embedder }),
  })
  await engram.start()
  const search = engram.search
  const ids = Object.keys(TEXTS)
  const passageVectors = await embedder.embed(
    ids.map((id) => TEXTS[id]!),
    signal,
  )
  const entityVectors = await embedder.embed(
    ENTITIES.map((e) => e.name),
    signal,
  )
  await engram.commit('default', {
    passages: ids.map((id) => passage(id, TEXTS[id]!)),
    entities: ENTITIES,
    vectors: [
      ...ids.map((id, i) => ({ space: 'passages', id, vector: passageVectors[i]! })),
      ...ENTITIES.map((e, i) => ({ space: 'entities', id: e.uuid, vector: entityVectors[i]! })),
    ],
  })
  const store = await engram.store('default')
  await store.meta.set('embedder', JSON.stringify({ name: embedder.name, dimension: DIM }))
  embedder.calls = 0
  /** Passage ids by exact cosine with the query, as the dense list must rank them. */
  const byCosine = async (query: string, pool = ids) => {
    const [q] = await embedder.embed([query], signal)
    const v = await embedder.embed(
      pool.map((id) => TEXTS[id]!),
      signal,
    )
    embedder.calls -= pool.length + 1
    return pool
      .map((id, i) => ({ id, score: dot(q!, v[i]!) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
  }
  return { engram, search, embedder, byCosine }
}

describe('dense search', () => {
  it('adds a dense list to the passages channel, scored by cosine and fused by rrf', async () => {
    const { search, embedder, byCosine } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'river flooded after rain', profileStages: true }),
    )
    const expected = await byCosine('river flooded after rain')
    expect(res.channelLists.dense).toEqual(expected.map((e) => e.id))
    expect(res.channelLists.bm25!.length).toBeGreaterThan(0)

    const top = res.hits[0]!
    expect(top.scores.dense).toBeCloseTo(expected.find((e) => e.id === top.id)!.score, 5)
    const rank = (list: string[]) => list.indexOf(top.id) + 1
    expect(top.scores.rrf).toBeCloseTo(
      1 / (60 + rank(res.channelLists.bm25!)) + 1 / (60 + rank(res.channelLists.dense!)),
      9,
    )
    // A passage only the dense side found still carries its dense score and no bm25 one.
    const denseOnly = res.hits.find((h) => !res.channelLists.bm25!.includes(h.id))
    expect(denseOnly?.scores.bm25).toBeUndefined()
    expect(denseOnly?.scores.dense).toEqual(expect.any(Number))

    // The query is embedded once, timed as its own stage next to the dense lookup.
    expect(embedder.calls).toBe(1)
    const stages = stagesOf(res).map((s) => s.stage)
    expect(stages).toEqual(expect.arrayContaining(['search.embed', 'search.dense', 'search.bm25']))
  })

  it('fuses both lists by convex combination of min-max normalised scores', async () => {
    const { search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'bank savings loans', fusion: 'cc', fusionAlpha: 0.7 }),
    )
    const all = await search.search(
      'default',
      request({ query: 'bank savings loans', fusion: 'none', k: 50 }),
    )
    const norm = (signal: 'bm25' | 'dense') => {
      const scores = all.hits.flatMap((h) =>
        h.scores[signal] === undefined ? [] : [h.scores[signal]!],
      )
      // min-max with an id the list did not return one mean gap below its lowest (score 0)
      const [lo, hi] = [Math.min(...scores), Math.max(...scores)]
      const absent = lo - (hi - lo) / (scores.length - 1)
      return (x: number | undefined) => (x === undefined ? 0 : (x - absent) / (hi - absent))
    }
    const [b, d] = [norm('bm25'), norm('dense')]
    for (const hit of res.hits)
      expect(hit.scores.cc).toBeCloseTo(0.7 * d(hit.scores.dense) + 0.3 * b(hit.scores.bm25), 9)
    expect(res.hits.map((h) => h.scores.cc)).toEqual(
      [...res.hits.map((h) => h.scores.cc)].sort((x, y) => y! - x!),
    )
  })

  it("fuses by cc with the embedder's calibration when the request names no fusion", async () => {
    const query = 'bank savings loans'
    const { fusion: _, ...noFusion } = request({ query, k: 8 })
    for (const denseShare of [0, 1]) {
      const { search, byCosine } = await setup({
        fusion: { normalization: 'min-max', denseShare, graphWeight: 0.5 },
      })
      const res = await search.search('default', noFusion)
      expect(res.hits[0]!.scores.cc).toEqual(expect.any(Number))
      const ids = res.hits.map((h) => h.id)
      if (denseShare === 1) expect(ids).toEqual((await byCosine(query)).map((e) => e.id))
      // BM25's order, every hit of it (its last scores above an id it did not return), then the
      // dense-only ids.
      else {
        const bm25 = res.channelLists.bm25!.slice(0, 8)
        expect(ids.slice(0, bm25.length)).toEqual(bm25)
      }
    }
  })

  it('reranks the fused head by cosine with plugin:dense', async () => {
    const { search, embedder } = await setup()
    const query = 'rain on the valley road'
    const fused = await search.search('default', request({ query }))
    const reranked = await search.search(
      'default',
      request({ query, rerank: 'plugin:dense', profileStages: true }),
    )
    const order = (hits: typeof fused.hits) => hits.map((h) => h.id)
    expect(new Set(order(reranked.hits))).toEqual(new Set(order(fused.hits)))
    // Ranked by rerank score (= the dense cosine), which is not the fused order here.
    for (const hit of reranked.hits) {
      expect(hit.scores.rerank).toBeCloseTo(hit.scores.dense!, 6)
      expect(hit.score).toBe(hit.scores.rerank)
    }
    const rerankScores = reranked.hits.map((h) => h.scores.rerank!)
    expect(rerankScores).toEqual([...rerankScores].sort((a, b) => b - a))
    expect(order(reranked.hits)).not.toEqual(order(fused.hits))
    // Channel and stage share the memoised query embedding.
    expect(embedder.calls).toBe(2)
    const stages = stagesOf(reranked)
    expect(stages.find((s) => s.stage === 'search.embed')?.calls).toBe(1)
    expect(stages.map((s) => s.stage)).toContain('search.rerank')
  })

  it('skips dense retrieval for lexical-only searches', async () => {
    const { search, embedder } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'river bank', lexicalOnly: true, channels: ['passages', 'entities'] }),
    )
    expect(Object.keys(res.channelLists).sort()).toEqual(['bm25', 'entities'])
    expect(res.hits.every((h) => h.scores.dense === undefined)).toBe(true)
    expect(embedder.calls).toBe(0)
    await expect(
      search.search(
        'default',
        request({ query: 'river', lexicalOnly: true, rerank: 'plugin:dense' }),
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 })
  })

  it('refuses rerank=plugin:dense with a 400 when no embedder is configured', async () => {
    const { search } = await setup({ embedder: false })
    const res = await search.search('default', request({ query: 'river bank' }))
    expect(Object.keys(res.channelLists)).toEqual(['bm25'])
    const error = await search
      .search('default', request({ query: 'no such words at all', rerank: 'plugin:dense' }))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EngramError)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 })
    expect((error as EngramError).message).toMatch(/plugin:dense.*embedder/)
    expect(await search.vectors('default')).toBeNull()
    expect(search.embed('default')).toBeNull()
  })

  it('adds a dense entity list without events, honouring node_labels', async () => {
    const { search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'valley flood heavy rain', channels: ['entities'] }),
    )
    expect(res.channelLists.entities_dense).toBeDefined()
    expect(res.channelLists.entities_dense).not.toContain('e-flood')
    expect(res.channelLists.entities_dense![0]).toBe('e-rain')
    const rain = res.hits.find((h) => h.id === 'e-rain')!
    expect(rain).toMatchObject({ channel: 'entities' })
    expect(rain.scores.dense).toBeGreaterThan(0)

    const places = await search.search(
      'default',
      request({ query: 'valley flood heavy rain', channels: ['entities'], nodeLabels: ['PLACE'] }),
    )
    expect(places.channelLists.entities_dense).toEqual(['e-river'])
  })

  it('keeps the vector indexes current after commits, vector deletes and entity deletes', async () => {
    const { engram, search, embedder } = await setup()
    const query = 'glacier ice melting'
    const before = await search.search('default', request({ query }))
    expect(before.channelLists.bm25).toEqual([])

    const [v] = await embedder.embed(['Glacier ice is melting fast.'], signal)
    await engram.commit('default', {
      passages: [passage('p9', 'Glacier ice is melting fast.')],
      vectors: [{ space: 'passages', id: 'p9', vector: v! }],
    })
    let res = await search.search('default', request({ query }))
    expect(res.channelLists.dense![0]).toBe('p9')
    expect(res.hits[0]!.id).toBe('p9')

    // An updated vector moves the passage; a deleted one leaves the dense list.
    const [elsewhere] = await embedder.embed(['bicycles mountains summer'], signal)
    await engram.commit('default', {
      vectors: [{ space: 'passages', id: 'p9', vector: elsewhere! }],
    })
    res = await search.search('default', request({ query: 'bicycles summer days' }))
    expect(res.channelLists.dense!.slice(0, 2).sort()).toEqual(['p8', 'p9'])
    await engram.commit('default', { deleteVectors: [{ space: 'passages', id: 'p9' }] })
    res = await search.search('default', request({ query: 'bicycles summer days' }))
    expect(res.channelLists.dense).not.toContain('p9')

    await engram.commit('default', { deleteEntities: ['e-rain'] })
    res = await search.search('default', request({ query: 'heavy rain', channels: ['entities'] }))
    expect(res.channelLists.entities_dense).not.toContain('e-rain')
    const left = await (await search.vectors('default'))!.get('entities', ['e-rain', 'e-bank'])
    expect([...left.keys()]).toEqual(['e-bank'])
  })

  it('builds vector indexes from storage, and ingested passages become dense hits', async () => {
    const embedder = hashingBagOfWordsTestEmbedder()
    const engram = createEngine({ storage: memoryAdapter(), version: 't', embedder })
    await engram.start()
    const ingest = async (text: string) => {
      const payload: TextIngestPayload = {
        text,
        json: null,
        metaKeys: {},
        observateFor: [],
        sourceTimestamp: AT,
        skipEnrichment: true,
      }
      await engram.tasks.submit({ brainId: 'default', kind: INGEST_TEXT, payload })
      await engram.tasks.idle()
    }
    await ingest('Volcanoes erupt lava and ash over the island.')
    const search = engram.search
    // Built from the adapter on first use...
    let res = await search.search('default', request({ query: 'lava island volcano' }))
    expect(res.channelLists.dense).toHaveLength(1)
    // ...then kept current by the commit of the next ingestion.
    await ingest('Coral reefs need warm clear water.')
    res = await search.search('default', request({ query: 'coral reefs water' }))
    expect(res.channelLists.dense).toHaveLength(2)
    expect(res.hits[0]!.snippet).toMatch(/Coral reefs/)
  })

  it('refuses dense search on a brain embedded with another model', async () => {
    const { engram, search } = await setup()
    const store = await engram.store('default')
    await store.meta.set('embedder', JSON.stringify({ name: 'other-model', dimension: DIM }))
    await expect(search.search('default', request({ query: 'river bank' }))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
    })
    // Lexical-only search (the demo) still works.
    const res = await search.search('default', request({ query: 'river bank', lexicalOnly: true }))
    expect(res.hits.length).toBeGreaterThan(0)
  })
})
