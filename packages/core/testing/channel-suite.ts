import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createEngine,
  memoryAdapter,
  type ChannelPlugin,
  type Embedder,
  type Engram,
  type SearchPlugin,
  type SearchRequest,
  type SearchResponse,
} from '../src/index.js'
import { hashingTestEmbedder, searchCorpus, searchCorpusBatch } from './search-corpus.js'

export interface ChannelSuiteOptions {
  /** The channel as a request names it: `passages`, ... for built-ins, `plugin:<name>` for plugins. */
  channel: string
  /** The plugin to register (omit for built-ins, which every engine has). */
  plugin?: () => ChannelPlugin
  /** Other plugins it needs beside itself. */
  plugins?: () => SearchPlugin[]
  /**
   * An embedder, for channels with a dense side: the suite stores the corpus' vectors with it and
   * searches with it. Pass `true` for the suite's deterministic hashing embedder.
   */
  embedder?: (() => Embedder) | true
  /** What the channel returns: passage ids or entity uuids (default: the plugin's `yields`). */
  yields?: 'passages' | 'entities'
  /** Queries the channel should answer on the suite's corpus (default: the corpus' own). */
  queries?: string[]
}

const request = (query: string, channel: string, k = 10): SearchRequest => ({
  query,
  k,
  channels: [channel],
  expand: 'none',
  fusion: 'none',
  rerank: 'none',
  profileStages: false,
})

/**
 * The conformance suite every channel runs, built-in or `plugin:<name>` (issue 12 item 7, beside the
 * storage suite): on a small two-brain corpus it pins what `contracts/search-plugins.ts` promises about
 * a `ChannelPlugin`: lists best first with finite scores and no repeated id, at most `depth` items,
 * records of the declared kind in the searched brain only, no throw on an empty brain or an unknown word,
 * the same answer twice, and a deleted entity gone from the next search.
 */
export function runChannelSuite(options: ChannelSuiteOptions): void {
  const name = options.channel
  let engram: Engram
  let yields: 'passages' | 'entities'
  const alpha = searchCorpus('a-')
  const beta = searchCorpus('b-')
  const queries = options.queries ?? alpha.queries
  const search = (brainId: string, query: string, k?: number): Promise<SearchResponse> =>
    engram.search.search(brainId, request(query, name, k))

  describe(`channel conformance: ${name}`, () => {
    beforeAll(async () => {
      const plugin = options.plugin?.()
      yields = options.yields ?? plugin?.yields ?? 'passages'
      const embedder =
        options.embedder === true ? hashingTestEmbedder() : (options.embedder?.() ?? null)
      engram = createEngine({
        storage: memoryAdapter(),
        version: 'conformance',
        embedder,
        plugins: [...(plugin ? [plugin] : []), ...(options.plugins?.() ?? [])],
        snapshots: false,
      })
      await engram.start()
      for (const [id, corpus] of [
        ['alpha', alpha],
        ['beta', beta],
      ] as const) {
        await engram.brains.create(id)
        await engram.commit(id, await searchCorpusBatch(corpus, embedder ?? undefined))
      }
      await engram.brains.create('empty')
    })
    afterAll(async () => {
      await engram?.stop()
    })

    it('answers the corpus queries with its lists best first, finite scores, no id twice', async () => {
      let found = 0
      for (const query of queries) {
        const res = await search('alpha', query)
        const scores = res.hits.map((h) => h.score)
        expect(scores.every(Number.isFinite), query).toBe(true)
        // With `fusion=none` and one list, hits are that list in its order with its scores.
        if (Object.keys(res.channelLists).length === 1)
          expect(
            scores.every((s, i) => i === 0 || s <= scores[i - 1]!),
            query,
          ).toBe(true)
        for (const ids of Object.values(res.channelLists))
          expect(new Set(ids).size, query).toBe(ids.length)
        found += res.hits.length
      }
      expect(found, 'hits over all queries').toBeGreaterThan(0)
    })

    it('returns at most depth candidates per list (depth = max(k, 50))', async () => {
      for (const query of queries) {
        const res = await search('alpha', query, 1)
        for (const ids of Object.values(res.channelLists))
          expect(ids.length).toBeLessThanOrEqual(50)
        expect(res.hits.length).toBeLessThanOrEqual(1)
      }
    })

    it('returns records of its declared kind from the searched brain only', async () => {
      const own = new Set(
        yields === 'passages' ? alpha.passages.map((p) => p.id) : alpha.entities.map((e) => e.uuid),
      )
      for (const query of queries) {
        const res = await search('alpha', query)
        for (const ids of Object.values(res.channelLists))
          for (const id of ids) expect(own.has(id), `${id} for '${query}'`).toBe(true)
      }
    })

    it('answers an empty brain and an unknown word without throwing', async () => {
      for (const query of queries)
        expect((await search('empty', query)).hits, `'${query}' on an empty brain`).toEqual([])
      const res = await search('alpha', 'zzqxv')
      expect(Array.isArray(res.hits)).toBe(true)
    })

    it('gives the same answer to the same request', async () => {
      for (const query of queries) {
        const first = await search('alpha', query)
        const second = await search('alpha', query)
        // Scores that depend on the clock (the events channel's recency) may move in the 10th digit.
        expect(second.hits.map((h) => h.id)).toEqual(first.hits.map((h) => h.id))
        second.hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(first.hits[i]!.score, 6))
      }
    })

    it('no longer returns an entity once it is deleted', async () => {
      if (yields !== 'entities') return
      const before = new Map<string, SearchResponse>()
      for (const query of queries) before.set(query, await search('beta', query))
      const victim = [...before.values()].flatMap((r) => r.hits.map((h) => h.id))[0]
      expect(victim, 'an entity hit on the beta brain').toBeDefined()
      await engram.commit('beta', {
        deleteEntities: [victim!],
        deleteRelationships: beta.relationships
          .filter((r) => r.subjectUuid === victim || r.objectUuid === victim)
          .map((r) => r.uuid),
      })
      for (const query of queries) {
        const res = await search('beta', query)
        for (const ids of Object.values(res.channelLists)) expect(ids).not.toContain(victim)
      }
    })
  })
}
