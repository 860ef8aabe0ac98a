import type { ChannelList, ChannelPlugin } from '../../contracts/search-plugins.js'

/** Passages: BM25 over passage text, plus dense retrieval when the brain has an embedder. */
export function passagesChannel(): ChannelPlugin {
  return {
    kind: 'channel',
    name: 'passages',
    yields: 'passages',
    async search(query, ctx) {
      const lists: ChannelList[] = [
        {
          name: 'bm25',
          signal: 'bm25',
          items: await ctx.timer.time('search.bm25', async () =>
            ctx.text.search('passages', query.text, query.depth),
          ),
        },
      ]
      if (ctx.vectors !== null && ctx.embed !== null) {
        const vector = await ctx.embed(query.text)
        lists.push({
          name: 'dense',
          signal: 'dense',
          items: await ctx.timer.time('search.dense', () =>
            ctx.vectors!.search('passages', vector, query.depth),
          ),
        })
      }
      return lists
    },
  }
}
