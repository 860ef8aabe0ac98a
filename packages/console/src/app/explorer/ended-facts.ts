import type { EngramClient, Entity, Relationship } from '@engram/client'
import { factState } from './fact-window.js'

/** Relationships read per direction (the list endpoint's page size). */
export const ENDED_FACTS_LIMIT = 1000

/**
 * The relationships of `entity` that had ended by `at` (ms), each with the entity at its other end.
 *
 * `GET /retrieve/entity/status` leaves ended facts out (docs/time.md: the default "now" hides them,
 * an `as_of` shows only those valid then), so the explorer reads them from the list endpoint, which is
 * not sliced and carries every record with its window: `GET /retrieve/relationships` by the entity's
 * name as source, then as target (the same two calls as the detail panel), kept when the uuid matches
 * and the fact's window ended by `at`. Two requests, each a name-substring scan on the server; at most
 * {@link ENDED_FACTS_LIMIT} matches per direction.
 */
export async function endedFacts(
  client: EngramClient,
  entity: { uuid: string; name: string },
  at: number,
  signal?: AbortSignal,
): Promise<[Relationship, Entity][]> {
  const list = (target: 'source' | 'target') =>
    client.GET('/retrieve/relationships', {
      params: {
        query: {
          query_text: entity.name,
          query_search_target: target,
          limit: ENDED_FACTS_LIMIT,
        },
      },
      ...(signal === undefined ? {} : { signal }),
    })
  const [outgoing, incoming] = await Promise.all([list('source'), list('target')])
  const out: [Relationship, Entity][] = []
  const seen = new Set<string>()
  const keep = (r: Relationship, other: Entity) => {
    if (seen.has(r.uuid) || other.uuid === entity.uuid || factState(r, at) !== 'ended') return
    seen.add(r.uuid)
    out.push([r, other])
  }
  for (const t of outgoing.relationships)
    if (t.subject.uuid === entity.uuid) keep(t.predicate, t.object)
  for (const t of incoming.relationships)
    if (t.object.uuid === entity.uuid) keep(t.predicate, t.subject)
  return out
}
