import type {
  Candidate,
  ChannelList,
  ChannelPlugin,
  FusionPlugin,
  SearchPlugin,
  StagePlugin,
} from '@engram/core'

/**
 * A researcher's plugin written only against `@engram/core`'s public exports (the ESLint rule for
 * plugins holds it to that): a channel, a fusion and a stage, to show that a registered plugin reaches
 * every operation the engine ranks candidates for.
 */

/** The word the probe channel looks for, whatever the query. */
export const PROBE_WORD = 'zeppelin'

/** `plugin:probe`: the passages that mention {@link PROBE_WORD}, whatever the query asks. */
export function probeChannel(): ChannelPlugin {
  return {
    kind: 'channel',
    name: 'probe',
    yields: 'passages',
    async search(query, ctx) {
      const items = ctx.text
        .search('passages', PROBE_WORD, query.depth)
        .map((c, i) => ({ id: c.id, score: 1 / (i + 1) }))
      return [{ name: 'probe', signal: 'plugin', items }]
    },
  }
}

/** `plugin:probefuse`: a candidate scores the number of lists holding it plus its best 1/rank. */
export function probeFusion(): FusionPlugin {
  return {
    kind: 'fusion',
    name: 'probefuse',
    fuse(lists: ChannelList[]): Candidate[] {
      const scores = new Map<string, number>()
      for (const list of lists)
        list.items.forEach((item, rank) =>
          scores.set(item.id, (scores.get(item.id) ?? 0) + 1 + 1 / (rank + 1)),
        )
      return [...scores]
        .map(([id, score]) => ({ id, score }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    },
  }
}

/**
 * `plugin:probestage`: rescores the i-th hit (from 0) to 1001 + i, which reverses the
 * head, and records what it saw so a test can check where it ran among the built-in stages.
 */
export function probeStage(seen: { ids: string[]; scores: number[] }[] = []): StagePlugin {
  return {
    kind: 'stage',
    name: 'probestage',
    async run(_query, hits, ctx) {
      seen.push({ ids: hits.map((h) => h.id), scores: hits.map((h) => h.score) })
      await ctx.timer.time('search.plugin.probestage', async () => undefined)
      return new Map(hits.map((h, i) => [h.id, 1001 + i]))
    },
  }
}

export function probePlugins(seen?: { ids: string[]; scores: number[] }[]): SearchPlugin[] {
  return [probeChannel(), probeFusion(), probeStage(seen)]
}
