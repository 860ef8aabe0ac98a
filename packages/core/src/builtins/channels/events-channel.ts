import type { ChannelPlugin } from '../../contracts/search-plugins.js'

const DAY_MS = 86_400_000
/** Largest share by which recency lifts an event's text score (a fresh event: x1.1). */
export const EVENT_RECENCY_WEIGHT = 0.1

/**
 * Events: BM25 over event nodes (name and description) with a mild recency prior, so recent events
 * win ties and near-ties with old ones: score x (1 + 0.1 x 0.5^(age_days / 365)); undated events get
 * no lift. The original multiplied the score by the decay itself (one-year half-life), which made a
 * two-year-old exact match lose to a fresh weak one and ranked every undated event above every dated
 * one; on LoCoMo that pushed the events of later sessions over the answer (evidence R@5 0.49 -> 0.38).
 */
export function eventsChannel(now: () => number = Date.now): ChannelPlugin {
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
          const at = Date.parse(ctx.entities.happenedAt(id) ?? '')
          const recency = Number.isNaN(at) ? 0 : 0.5 ** (Math.max(0, (now() - at) / DAY_MS) / 365)
          return { id, score: score * (1 + EVENT_RECENCY_WEIGHT * recency) }
        })
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      return [{ name: 'events', signal: 'graph', items }]
    },
  }
}
