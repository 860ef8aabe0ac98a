import type { Candidate, ChannelPlugin, CommunityHit } from '../../contracts/search-plugins.js'

/** Communities read per query: enough for `depth` members in all but tiny communities. */
const MAX_COMMUNITIES = 10

/**
 * Communities: Louvain communities of the entity graph (Blondel et al. 2008), found by BM25 over their
 * extractive summaries, answered with their member entities (DESIGN.md section 3). A community scoring
 * s puts its hubs first, at s·(1 − 0.05·i) for the i-th hub, and its other members at
 * s·(0.25 + 0.25·centrality), so the hubs of a weaker community can come before the periphery of a
 * stronger one. `community_labels` chooses which nodes may be hubs and keeps only the communities that
 * have one.
 */
export function communitiesChannel(): ChannelPlugin {
  return {
    kind: 'channel',
    name: 'communities',
    yields: 'entities',
    async search(query, ctx) {
      const items = await ctx.timer.time('search.communities', async () => {
        const hits = await ctx.communities.search(
          query.text,
          MAX_COMMUNITIES,
          query.communityLabels,
          query.depth,
        )
        return membersOf(hits, query.depth)
      })
      return [{ name: 'communities', signal: 'graph', items }]
    },
  }
}

/** Flattens matched communities into one entity list (each node belongs to one community). */
export function membersOf(hits: readonly CommunityHit[], depth: number): Candidate[] {
  const scores = new Map<string, number>()
  for (const hit of hits) {
    const hubs = new Set(hit.hubs)
    hit.hubs.forEach((uuid, i) => scores.set(uuid, hit.score * (1 - 0.05 * i)))
    for (const { uuid, centrality } of hit.members) {
      if (hubs.has(uuid) || scores.has(uuid)) continue
      scores.set(uuid, hit.score * (0.25 + 0.25 * centrality))
    }
  }
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, depth)
}
