import type { ChannelList, ChannelPlugin } from '../../contracts/search-plugins.js'
import { EVENT_LABEL } from '../../model/entity.js'

export interface EntitiesChannelOptions {
  /**
   * Take the raw nearest entity vectors for the dense list (events and vectors of deleted entities
   * included), as `/retrieve/hops` seeds have always read them. Default false: known non-event
   * entities only, like the lexical list.
   */
  rawDense?: boolean
}

/**
 * Entities: BM25 over name, aliases and description of non-event entities, filtered by `node_labels`
 * (any of them), plus, when the brain has an embedder, a dense list (`entities_dense`) by cosine with
 * the entity vectors under the same filter. Events have their own channel.
 */
export function entitiesChannel({ rawDense = false }: EntitiesChannelOptions = {}): ChannelPlugin {
  return {
    kind: 'channel',
    name: 'entities',
    yields: 'entities',
    async search(query, ctx) {
      const wanted = query.nodeLabels
      const filter =
        wanted === undefined || wanted.length === 0
          ? undefined
          : (uuid: string) => (ctx.entities.labels(uuid) ?? []).some((l) => wanted.includes(l))
      const items = await ctx.timer.time('search.entities', async () =>
        ctx.text.search('entities', query.text, query.depth, filter),
      )
      const lists: ChannelList[] = [{ name: 'entities', signal: 'graph', items }]
      if (ctx.vectors !== null && ctx.embed !== null) {
        const vector = await ctx.embed(query.text)
        // The `entities` vector space also holds events (and may outlive a deleted entity briefly):
        // only entities the index knows, not events, and of the wanted labels.
        const accept = (uuid: string) => {
          const labels = ctx.entities.labels(uuid)
          return labels !== undefined && !labels.includes(EVENT_LABEL) && (filter?.(uuid) ?? true)
        }
        lists.push({
          name: 'entities_dense',
          signal: 'dense',
          items: await ctx.timer.time('search.entities_dense', () =>
            rawDense
              ? ctx.vectors!.search('entities', vector, query.depth)
              : ctx.vectors!.search('entities', vector, query.depth, accept),
          ),
        })
      }
      return lists
    },
  }
}
