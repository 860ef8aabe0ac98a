import type { GraphReader } from '../../contracts/search-plugins.js'
import { sourceIdOf } from '../../model/passage.js'
import { extrasOf, type Extras } from '../extras.js'
import type { StageTimer } from '../stage-timer.js'
import type { HitRecord, Hydration, SearchState } from './search-state.js'

export type { HitRecord, Hydration }

type Loader = { graph: Pick<GraphReader, 'passages' | 'entities'>; timer: Pick<StageTimer, 'time'> }

/**
 * Hydrate, eagerly: loads the records of the whole window at once and keeps only the candidates that
 * have one. Stages that read records (rerank, personalization) and extras filters need this, as a
 * filter may reject most of the window. Idempotent.
 */
export async function hydrateAll(state: SearchState, loader: Loader): Promise<void> {
  if (state.hydration !== null && state.hydration.hydrated >= state.hydration.window.length) return
  const hydration = startHydration(state)
  await hydrateThrough(hydration, hydration.window.length, loader)
  state.ranked = hydration.window.filter((c) => hydration.records.has(c.id))
}

/**
 * Hydrate, lazily: fixes the window and loads nothing yet. A plain search then loads records in rank
 * order, k at a time, until it has k hits (`hydrateThrough` from assemble): it parses about k rows
 * instead of five times as many (hydration was the largest cost of a BM25 search over HTTP).
 */
export function startHydration(state: SearchState): Hydration {
  if (state.hydration === null) {
    const { request } = state
    const window = state.ranked.slice(0, Math.max(state.depth, request.k * 5))
    state.hydration = { window, records: new Map(), hydrated: 0 }
    state.ranked = window
  }
  return state.hydration
}

/** Loads the window's records up to position `end` (exclusive), timed as `search.hydrate`. */
export async function hydrateThrough(
  hydration: Hydration,
  end: number,
  loader: Loader,
): Promise<void> {
  if (end <= hydration.hydrated) return
  const ids = hydration.window.slice(hydration.hydrated, end).map((c) => c.id)
  hydration.hydrated = Math.min(end, hydration.window.length)
  await loader.timer.time('search.hydrate', () => loadRecords(loader.graph, ids, hydration.records))
}

/** Loads the records of `ids` (passages first, then entities) into `out`; unknown ids stay absent. */
async function loadRecords(
  graph: Loader['graph'],
  ids: string[],
  out: Map<string, HitRecord>,
): Promise<void> {
  for (const p of await graph.passages(ids)) {
    const nodeId =
      typeof p.metadata.node_id === 'string'
        ? p.metadata.node_id
        : typeof p.metadata.doc_id === 'string'
          ? p.metadata.doc_id
          : p.id
    out.set(p.id, {
      kind: 'passage',
      nodeId,
      labels: ['PASSAGE'],
      text: p.text,
      // Which source the hit came from (docs/forgetting.md); its title or file name are meta keys.
      extras: withSource(extrasOf(p.metadata), sourceIdOf(p)),
      entity: null,
    })
  }
  const rest = ids.filter((id) => !out.has(id))
  for (const e of rest.length > 0 ? await graph.entities(rest) : []) {
    out.set(e.uuid, {
      kind: 'entity',
      nodeId: e.uuid,
      labels: e.labels,
      text: e.description ? `${e.name}: ${e.description}` : e.name,
      extras: {
        ...extrasOf(e.properties),
        name: e.name,
        ...(e.happenedAt ? { happened_at: e.happenedAt } : {}),
      },
      entity: e,
    })
  }
}

/**
 * `extras` (fresh from `extrasOf`) with the hit's `source_id` when it has one, set in place: a spread
 * that adds a key takes V8's slow path on Node 20 (about a microsecond a hit, and a hidden class each).
 */
function withSource(extras: Extras, sourceId: string | null): Extras {
  if (sourceId !== null) extras.source_id = sourceId
  return extras
}
