import type { GraphNeighbour, SearchContext, VectorReader } from '../contracts/search-plugins.js'
import type { BrainStore } from '../contracts/storage-adapter.js'
import type { BrainIndexes } from '../indexes/brain-indexes.js'
import { normalizeEntityName } from '../model-writes/normalize-entity-name.js'
import { walkFromSeeds } from '../indexes/graph/passage-walk.js'
import { sequenceNeighbours } from '../indexes/passage-sequence.js'

export interface SearchContextParts {
  brainId: string
  store: BrainStore
  indexes: BrainIndexes
  vectors: VectorReader | null
  embed: ((text: string) => Promise<Float32Array>) | null
  timer: SearchContext['timer']
  /** Read on first use (a lexical search never arms a deadline). */
  signal: () => AbortSignal
}

/**
 * The readers one request hands every plugin, built-in or not (STYLE item 4): BM25 indexes, vectors,
 * records and the in-memory graph, entity attributes, communities, the query embedder, the timer and
 * the abort signal.
 */
export function createSearchContext(parts: SearchContextParts): SearchContext {
  const { brainId, store, indexes } = parts
  const graph = () => indexes.graph.get(store)
  return {
    brainId,
    text: {
      search: (index, query, k, filter) => indexes[index].search(query, k, filter),
      terms: (index, text) => indexes[index].termWeights(text),
      held: (index, id, terms) => indexes[index].heldTerms(id, terms),
      spread: (index, text) => indexes[index].spread(text),
    },
    vectors: parts.vectors,
    graph: {
      entities: (uuids) => store.entities.get(uuids),
      passages: (ids) => store.passages.get(ids),
      relationshipsOf: (uuid) => store.relationships.of(uuid),
      degree: async (uuid) => (await graph()).relationshipCount(uuid),
      async neighbours(uuid) {
        const g = await graph()
        return g.edgesOf(uuid).map((e): GraphNeighbour => {
          const out = g.uuid[g.subject[e]!] === uuid
          return {
            uuid: g.uuid[out ? g.object[e]! : g.subject[e]!]!,
            relationshipUuid: g.edgeUuid[e]!,
            direction: out ? 'out' : 'in',
            deprecated: g.deprecated[e]!,
          }
        })
      },
      walk: async (seeds, options) => walkFromSeeds(await graph(), seeds, options),
      sequenceNeighbours: async (ids, within) =>
        sequenceNeighbours(indexes.lexical.sequence, ids, within),
    },
    entities: {
      labels: (uuid) => indexes.entityInfo.get(uuid)?.labels,
      happenedAt: (uuid) => indexes.entityInfo.get(uuid)?.happenedAt,
      byName: (name) => store.entities.findByName(normalizeEntityName(name)),
    },
    communities: {
      async search(text, k, hubLabels, maxMembers) {
        return (await indexes.communities.index(store)).search(text, k, hubLabels, maxMembers)
      },
    },
    embed: parts.embed,
    timer: parts.timer,
    get signal() {
      return parts.signal()
    },
  }
}
