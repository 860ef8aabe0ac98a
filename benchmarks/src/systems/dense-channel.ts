import type { ChannelPlugin } from '@engram/core'

/**
 * `channels=plugin:dense`: dense retrieval alone, as a search plugin built on the plugin contract only
 * (STYLE.md items 3 and 4). The engine has no request option for "dense without BM25": the built-in
 * `passages` channel always returns its BM25 list and adds a dense list when an embedder is configured, and
 * `lexicalOnly` is the opposite switch. This channel is that dense half and nothing else: the query embedded
 * once through `ctx.embed` (the engine's query embedder, with its embedder check), then `ctx.vectors.search`
 * over the `passages` vector space (the engine's HNSW index, exact below 2,000 vectors) at the request's
 * candidate depth. Fusion, hydration and the cut to k stay the engine's. Returns [] when the search has no
 * embedder or the brain no vectors, as the passages channel's dense half does.
 */
export function denseChannel(): ChannelPlugin {
  return {
    kind: 'channel',
    name: 'dense',
    yields: 'passages',
    async search(query, ctx) {
      if (ctx.vectors === null || ctx.embed === null) return []
      const vector = await ctx.embed(query.text)
      return [
        {
          name: 'dense',
          signal: 'dense',
          items: await ctx.timer.time('search.dense', () =>
            ctx.vectors!.search('passages', vector, query.depth),
          ),
        },
      ]
    },
  }
}
