import type { BrainStore } from '../contracts/storage-adapter.js'
import type { BrainIndexes } from '../indexes/brain-indexes.js'
import type { GraphIndex } from '../indexes/graph/graph-index.js'
import { isEvent, type Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import { isNow, visible, windowOf, type TimeFilter } from './validity.js'

/**
 * A brain as it was at a time (docs/time.md, "Questions about the past"): its store and indexes seen
 * through `filter`, so every retrieval operation answers `as_of` / `known_at` without knowing about
 * time. Reads through the sliced store leave out
 * - relationships and events outside their window (`visible`), entities learned after `knownAt`;
 * - passages and observations inserted after `knownAt`;
 * - with `asOf`, passages every fact of which lies outside its window (a passage stating no fact stays:
 *   text is evidence, not a fact).
 * The graph index is `GraphIndex.at(filter)`. The default filter (now) returns the brain unchanged, or
 * with `endedEvents: 'hide'` (search hits) leaves out only the events whose fact has ended.
 * Lists (`list`, `scan`) filter their pages, so a page may hold fewer items than its limit.
 */
export function sliceBrain(
  store: BrainStore,
  indexes: BrainIndexes,
  filter: TimeFilter,
  now = Date.now(),
  endedEvents: 'keep' | 'hide' = 'keep',
): { store: BrainStore; indexes: BrainIndexes } {
  if (isNow(filter)) {
    if (endedEvents === 'keep') return { store, indexes }
    const current = (e: Entity) => !isEvent(e) || visible(windowOf(e), filter, now)
    const entities = Object.create(store.entities) as BrainStore['entities']
    entities.get = async (uuids) => (await store.entities.get(uuids)).filter(current)
    const sliced = Object.create(store) as BrainStore
    Object.defineProperty(sliced, 'entities', { value: entities })
    return { store: sliced, indexes }
  }
  let graph: Promise<GraphIndex> | null = null
  const graphView = () => (graph ??= indexes.graph.get(store).then((g) => g.at(filter, now)))

  const known = (iso: string | null | undefined) =>
    filter.knownAt === undefined ||
    iso === null ||
    iso === undefined ||
    !(Date.parse(iso) > filter.knownAt)
  const entityVisible = (e: Entity) =>
    isEvent(e) ? visible(windowOf(e), filter, now) : known(e.createdAt)
  const relationshipVisible = (r: Relationship) => visible(windowOf(r), filter, now)
  // A fact visible then was not deprecated then, whatever became of it since.
  const asThen = (list: Relationship[]) =>
    list.flatMap((r) =>
      !relationshipVisible(r) ? [] : r.deprecated ? [{ ...r, deprecated: false }] : [r],
    )

  async function passagesVisible(passages: Passage[]): Promise<Passage[]> {
    const learned = passages.filter((p) => known(p.insertedAt))
    if (filter.asOf === undefined || learned.length === 0) return learned
    const g = await graphView()
    return learned.filter((p) => {
      const no = g.passageNumber(p.id)
      if (no === undefined) return true
      const events = g.passageEntities[no]!.filter((n) => g.isEvent[n])
      // A passage whose facts all lie outside the window says nothing true then.
      return events.length === 0 || events.some((n) => g.present[n] && eventValid(g, n))
    })
  }

  const sliced = Object.create(store) as BrainStore
  const entities = Object.create(store.entities) as BrainStore['entities']
  entities.get = async (uuids) => (await store.entities.get(uuids)).filter(entityVisible)
  entities.findByName = async (name) =>
    (await store.entities.findByName(name)).filter(entityVisible)
  entities.list = async (query) => {
    const page = await store.entities.list(query)
    return { ...page, items: page.items.filter(entityVisible) }
  }
  entities.scan = async (after, limit) =>
    (await store.entities.scan(after, limit)).filter(entityVisible)
  const relationships = Object.create(store.relationships) as BrainStore['relationships']
  relationships.get = async (uuids) => asThen(await store.relationships.get(uuids))
  relationships.of = async (uuid) => asThen(await store.relationships.of(uuid))
  relationships.list = async (query) => {
    const page = await store.relationships.list(query)
    const items = page.items.flatMap((t) => {
      const [predicate] = asThen([t.predicate])
      return predicate !== undefined && entityVisible(t.subject) && entityVisible(t.object)
        ? [{ ...t, predicate }]
        : []
    })
    return { ...page, items }
  }
  relationships.scan = async (after, limit) => asThen(await store.relationships.scan(after, limit))
  const passages = Object.create(store.passages) as BrainStore['passages']
  passages.get = async (ids) => passagesVisible(await store.passages.get(ids))
  passages.list = async (query) => {
    const page = await store.passages.list(query)
    return { ...page, items: await passagesVisible(page.items) }
  }
  const observations = Object.create(store.observations) as BrainStore['observations']
  observations.get = async (id) => {
    const o = await store.observations.get(id)
    return o !== null && known(o.insertedAt) ? o : null
  }
  observations.list = async (query) => {
    const page = await store.observations.list(query)
    return { ...page, items: page.items.filter((o) => known(o.insertedAt)) }
  }
  Object.defineProperties(sliced, {
    entities: { value: entities },
    relationships: { value: relationships },
    passages: { value: passages },
    observations: { value: observations },
  })

  const lazyGraph = Object.create(indexes.graph) as BrainIndexes['graph']
  lazyGraph.get = () => graphView()
  const slicedIndexes = Object.create(indexes) as BrainIndexes
  Object.defineProperty(slicedIndexes, 'graph', { value: lazyGraph })
  return { store: sliced, indexes: slicedIndexes }
}

/** An event's fact holds in the view: one of its edges is valid. */
function eventValid(g: GraphIndex, n: number): boolean {
  return g.adjacency[n]!.some((e) => g.usable(e) && g.valid[e])
}
