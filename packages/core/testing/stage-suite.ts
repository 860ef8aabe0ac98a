import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createEngine,
  memoryAdapter,
  type ChannelPlugin,
  type Embedder,
  type Engram,
  type SearchContext,
  type SearchPlugin,
  type SearchRequest,
  type StageHit,
  type StagePlugin,
  type StageResult,
} from '../src/index.js'
import { hashingTestEmbedder, searchCorpus, searchCorpusBatch } from './search-corpus.js'

export interface StageSuiteOptions {
  /** A fresh stage plugin. */
  create: () => StagePlugin
  /**
   * Whether the engine must register it (a `plugin:<name>` rerank). Default true; false for the stages the
   * pipeline places itself (neighbour expansion, personalization).
   */
  register?: boolean
  /**
   * What turns the stage on in a request. Default `{ rerank: 'plugin:<name>' }`; e.g.
   * `{ expand: 'neighbors' }` or `{ target: 'Alice' }` for the built-in ones.
   */
  request?: Partial<SearchRequest>
  /** Other plugins it needs beside itself. */
  plugins?: () => SearchPlugin[]
  /** An embedder, for stages that need one; `true` for the suite's deterministic hashing embedder. */
  embedder?: (() => Embedder) | true
  /** The user that searches personalise for (passed to `run` as `target`). */
  target?: string
}

const CHANNELS = ['passages', 'entities', 'events']

/** A channel that answers nothing and keeps the context it was given, so the suite can call the stage. */
function contextProbe(): ChannelPlugin & { last: SearchContext | null } {
  const probe = {
    kind: 'channel' as const,
    name: 'stage-suite-context',
    yields: 'passages' as const,
    last: null as SearchContext | null,
    async search(_query: unknown, ctx: SearchContext) {
      probe.last = ctx
      return []
    },
  }
  return probe
}

const asResult = (out: Map<string, number> | StageResult): StageResult =>
  out instanceof Map ? { scores: out } : out

/**
 * The conformance suite every stage runs, built-in or `plugin:<name>` (issue 12 item 7). The stage is
 * called directly with the readers a real search hands plugins, on hits of a real fused ranking:
 * it scores only hits it was given, with finite scores; an `order` is a permutation of them; `added`
 * candidates are new ids, best first; it answers no hits, leaves its input alone and answers the same
 * twice. Then through the pipeline: turned on in a request it never drops a hit.
 */
export function runStageSuite(options: StageSuiteOptions): void {
  const stage = options.create()
  const activate = options.request ?? { rerank: `plugin:${stage.name}` }
  const corpus = searchCorpus()
  const probe = contextProbe()
  let engram: Engram

  const request = (query: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({
    query,
    k: 200,
    channels: CHANNELS,
    expand: 'none',
    fusion: 'rrf',
    rerank: 'none',
    profileStages: false,
    ...extra,
  })

  /** The fused hits of `query` as stages see them, and the readers a search hands plugins. */
  async function hitsOf(query: string): Promise<{ hits: StageHit[]; ctx: SearchContext }> {
    const res = await engram.search.search(
      'default',
      request(query, { channels: [...CHANNELS, `plugin:${probe.name}`] }),
    )
    const ctx = probe.last!
    const entities = new Map(
      (await ctx.graph.entities(res.hits.map((h) => h.id))).map((e) => [e.uuid, e]),
    )
    const passages = new Map(
      (await ctx.graph.passages(res.hits.map((h) => h.id))).map((p) => [p.id, p]),
    )
    const reads = stage.reads ?? 'records'
    const hits = res.hits.map((h): StageHit => {
      const entity = entities.get(h.id) ?? null
      const text =
        reads === 'candidates'
          ? ''
          : entity !== null
            ? entity.description
              ? `${entity.name}: ${entity.description}`
              : entity.name
            : (passages.get(h.id)?.text ?? '')
      return { id: h.id, score: h.score, text, entity: reads === 'candidates' ? null : entity }
    })
    return { hits, ctx }
  }

  const lists = (hits: StageHit[]) => [
    {
      name: 'entities',
      signal: 'graph' as const,
      items: hits.map(({ id, score }) => ({ id, score })),
    },
  ]
  const run = async (query: string, hits: StageHit[], ctx: SearchContext) =>
    asResult(
      await options.create().run(query, hits, ctx, {
        lists: lists(hits),
        ...(options.target === undefined ? {} : { target: options.target }),
      }),
    )

  describe(`stage conformance: ${stage.name}`, () => {
    beforeAll(async () => {
      const embedder =
        options.embedder === true ? hashingTestEmbedder() : (options.embedder?.() ?? null)
      engram = createEngine({
        storage: memoryAdapter(),
        version: 'conformance',
        embedder,
        plugins: [
          probe,
          ...(options.register === false ? [] : [options.create()]),
          ...(options.plugins?.() ?? []),
        ],
        snapshots: false,
      })
      await engram.start()
      await engram.commit('default', await searchCorpusBatch(corpus, embedder ?? undefined))
    })
    afterAll(async () => {
      await engram?.stop()
    })

    it('scores only the hits it was given, with finite scores; an order is a permutation of them', async () => {
      let acted = 0
      for (const query of corpus.queries) {
        const { hits, ctx } = await hitsOf(query)
        const given = new Set(hits.map((h) => h.id))
        const result = await run(query, hits, ctx)
        for (const [id, score] of result.scores) {
          expect(given.has(id), `${id} was not a hit of '${query}'`).toBe(true)
          expect(Number.isFinite(score), `score of ${id}`).toBe(true)
        }
        if (result.order !== undefined) expect([...result.order].sort()).toEqual([...given].sort())
        acted += result.scores.size + (result.added?.items.length ?? 0)
      }
      expect(acted, 'scores or added candidates over all corpus queries').toBeGreaterThan(0)
    })

    it('adds only new candidates, best first, with finite scores', async () => {
      for (const query of corpus.queries) {
        const { hits, ctx } = await hitsOf(query)
        const added = (await run(query, hits, ctx)).added?.items ?? []
        const given = new Set(hits.map((h) => h.id))
        for (const item of added) {
          expect(given.has(item.id), `${item.id} was already a hit`).toBe(false)
          expect(Number.isFinite(item.score)).toBe(true)
        }
        expect(added.every((c, i) => i === 0 || c.score <= added[i - 1]!.score)).toBe(true)
        expect(new Set(added.map((c) => c.id)).size).toBe(added.length)
      }
    })

    it('answers no hits, leaves its input unchanged and answers the same twice', async () => {
      const { ctx } = await hitsOf(corpus.queries[0]!)
      expect((await run('anything', [], ctx)).scores.size).toBe(0)
      for (const query of corpus.queries) {
        const { hits } = await hitsOf(query)
        const copy = structuredClone(hits)
        const first = await run(query, hits, ctx)
        expect(hits).toEqual(copy)
        const second = await run(query, hits, ctx)
        expect([...second.scores]).toEqual([...first.scores])
        expect(second.order).toEqual(first.order)
        expect(second.added).toEqual(first.added)
      }
    })

    it('never drops a hit when a request turns it on', async () => {
      for (const query of corpus.queries) {
        const before = await engram.search.search('default', request(query))
        const after = await engram.search.search('default', request(query, activate))
        const kept = new Set(after.hits.map((h) => h.id))
        for (const hit of before.hits)
          expect(kept.has(hit.id), `${hit.id} for '${query}'`).toBe(true)
      }
    })
  })
}
