import type { ChannelPlugin } from '../../contracts/search-plugins.js'

const DAY_MS = 86_400_000

/**
 * Events: BM25 over event nodes (name and description), decayed by age with a one-year half-life
 * (0.5^(age_days / 365)) so recent events win ties with old ones; undated events are not decayed.
 */
export function eventsChannel(
  happenedAtOf: (brainId: string, uuid: string) => string | null | undefined,
  now: () => number = Date.now,
): ChannelPlugin {
  return {
    kind: 'channel',
    name: 'events',
    yields: 'entities',
    async search(query, ctx) {
      const raw = await ctx.timer.time('search.events', async () =>
        ctx.text.search('events', query.text, query.depth),
      )
      const items = raw
        .map(({ id, score }) => {
          const at = Date.parse(happenedAtOf(ctx.brainId, id) ?? '')
          const age = Number.isNaN(at) ? 0 : Math.max(0, (now() - at) / DAY_MS)
          return { id, score: score * 0.5 ** (age / 365) }
        })
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      return [{ name: 'events', signal: 'graph', items }]
    },
  }
}
