import type { ChannelList, StagePlugin } from '../../contracts/search-plugins.js'

/** Graph-channel hits that seed the expansion, best first. */
const MAX_EXPANSION_SEEDS = 20

/**
 * `expand=neighbors`: one hop from the best graph-channel hits (`entities`, `events`, `communities`,
 * any list with signal `graph`). Each neighbour not already a candidate scores seed score /
 * log2(2 + its degree), so hubs that touch everything do not flood the list (an IDF-like damping, as
 * the original's degree-IDF, original-notes.md section D); deprecated edges from a seed are not
 * followed. Degrees and neighbours come from the in-memory graph (`ctx.graph`), counted as the store
 * counts relationships. The neighbours are added to the ranking by score, below their seed.
 */
export function neighbourExpansion(): StagePlugin {
  return {
    kind: 'stage',
    name: 'neighbors',
    reads: 'candidates',
    head: Number.POSITIVE_INFINITY,
    async run(_query, hits, ctx, search) {
      const graphIds = new Set(
        search.lists.filter((l) => l.signal === 'graph').flatMap((l) => l.items.map((i) => i.id)),
      )
      const present = new Set(hits.map((h) => h.id))
      const seeds = hits.filter((h) => graphIds.has(h.id)).slice(0, MAX_EXPANSION_SEEDS)
      const scores = new Map<string, number>()
      for (const seed of seeds) {
        for (const edge of await ctx.graph.neighbours(seed.id)) {
          if (present.has(edge.uuid) || edge.deprecated) continue
          const score = seed.score / Math.log2(2 + (await ctx.graph.degree(edge.uuid)))
          if (score > (scores.get(edge.uuid) ?? -Infinity)) scores.set(edge.uuid, score)
        }
      }
      const added: ChannelList = {
        name: 'neighbors',
        signal: 'graph',
        items: [...scores]
          .map(([id, score]) => ({ id, score }))
          .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)),
      }
      return { scores: new Map(), added }
    },
  }
}
