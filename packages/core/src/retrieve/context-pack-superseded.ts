import type { BrainStore } from '../contracts/storage-adapter.js'
import { isEvent, type Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'

/** At most this many superseded facts per pack, and actors looked at for them. */
const MAX_SUPERSEDED = 10
const MAX_ACTORS = 8

/** A fact's window as the pack shows it (ISO; null when unbounded). */
export interface FactWindow {
  validAt: string | null
  invalidAt: string | null
}

/** One fact a newer one ended (docs/time.md, "Contradictions"), with both windows. */
export interface SupersededFact {
  actor: Entity
  predicate: string
  /** The event stating the old fact (or its direct relationship), and what filled the slot. */
  hub: string
  object: Entity
  window: FactWindow
  /** The fact that ended it. */
  by: { hub: string; predicate: string; object: Entity; window: FactWindow }
  /** The old fact as a line of text, its window first. */
  line: string
}

const windowOf = (r: { validAt?: string | null; invalidAt?: string | null }): FactWindow => ({
  validAt: r.validAt ?? null,
  invalidAt: r.invalidAt ?? null,
})

const span = (w: FactWindow) =>
  `${w.validAt?.slice(0, 10) ?? '?'} to ${w.invalidAt?.slice(0, 10) ?? 'now'}`

/**
 * The superseded facts of the pack's actors: each of their facts a contradiction ended
 * (`properties.invalidated_by`), with the fact that ended it. Read from the whole store (`allTime`),
 * whatever time the pack is asked at: the pack shows history beside what holds.
 */
export async function supersededFacts(
  allTime: BrainStore,
  actorUuids: readonly string[],
): Promise<SupersededFact[]> {
  const out: SupersededFact[] = []
  for (const actorUuid of actorUuids.slice(0, MAX_ACTORS)) {
    if (out.length >= MAX_SUPERSEDED) break
    const own = (await allTime.relationships.of(actorUuid)).filter(
      (r) => r.subjectUuid === actorUuid,
    )
    const ended = own.filter((r) => typeof r.properties.invalidated_by === 'string')
    if (ended.length === 0) continue
    const byUuid = new Map(own.map((r) => [r.uuid, r]))
    const [actor] = await allTime.entities.get([actorUuid])
    if (actor === undefined) continue
    for (const old of ended) {
      const next = byUuid.get(old.properties.invalidated_by as string)
      if (next === undefined) continue
      const [a, b] = await Promise.all([statedBy(allTime, old), statedBy(allTime, next)])
      if (a === null || b === null) continue
      const window = windowOf(a.timed)
      out.push({
        actor,
        predicate: old.name,
        hub: a.hub,
        object: a.object,
        window,
        by: { hub: b.hub, predicate: next.name, object: b.object, window: windowOf(b.timed) },
        line: `[${span(window)}] ${actor.name} ${old.name} ${a.object.name} (superseded by ${actor.name} ${next.name} ${b.object.name}, ${span(windowOf(b.timed))})`,
      })
      if (out.length >= MAX_SUPERSEDED) break
    }
  }
  return out
}

/** The hub, object and window record of a fact's predicate edge (through its event when it has one). */
async function statedBy(
  store: BrainStore,
  r: Relationship,
): Promise<{ hub: string; object: Entity; timed: Entity | Relationship } | null> {
  const [target] = await store.entities.get([r.objectUuid])
  if (target === undefined) return null
  if (!isEvent(target)) return { hub: r.uuid, object: target, timed: r }
  const legs = (await store.relationships.of(target.uuid)).filter(
    (l) => l.subjectUuid === target.uuid,
  )
  const leg = legs.find((l) => l.name === 'TARGETED') ?? legs.find((l) => l.name === 'OCCURRED_IN')
  if (leg === undefined) return null
  const [object] = await store.entities.get([leg.objectUuid])
  return object === undefined ? null : { hub: target.uuid, object, timed: target }
}
