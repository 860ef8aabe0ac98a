import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { isEvent, type Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { relationshipChange } from '../model-writes/changelog.js'
import type { SingleValuedSlots } from './single-valued.js'
import { supersede, type SlotFact } from './supersede.js'

/**
 * Ends the facts a write contradicts (docs/time.md, "Contradictions"): for every subject the write
 * states a single-valued fact about, the subject's stored facts of that slot and the new ones are put
 * on one timeline (`supersede`), and each fact whose end changes is rewritten: its predicate edge, the
 * other legs of its event and the event node get `invalidAt`, `expiredAt` (now) and `deprecated`, and
 * one `relationship_invalidated` entry is written. Runs under the brain's write lock, before the batch
 * is committed, so the stored facts it reads are the latest.
 *
 * A fact is a subject's edge whose predicate fills a slot. When the edge leads to an event (the local
 * extractor's "Alice -LIVES-> [Alice lives Paris] -TARGETED-> Paris"), the event's target (else the
 * place it occurred in) is what fills the slot; otherwise the edge's object does.
 */
export async function endContradictedFacts(
  store: BrainStore,
  batch: { entities: Entity[]; relationships: Relationship[] },
  slots: SingleValuedSlots,
  now: string,
): Promise<NonNullable<WriteBatch['changelog']>> {
  const entities = new Map(batch.entities.map((e) => [e.uuid, e]))
  const relationships = new Map(batch.relationships.map((r) => [r.uuid, r]))
  const legsOf = new Map<string, Relationship[]>()
  const addLeg = (r: Relationship) => {
    if (r.flowKey === null) return
    const legs = legsOf.get(r.flowKey) ?? []
    if (!legs.some((l) => l.uuid === r.uuid)) legs.push(r)
    legsOf.set(r.flowKey, legs)
  }
  batch.relationships.forEach(addLeg)

  // The subjects and slots this write states facts about.
  const wanted = new Map<string, Set<string>>()
  for (const r of batch.relationships) {
    const subject = entities.get(r.subjectUuid)
    if (subject === undefined || isEvent(subject)) continue
    const slot = slots.slotOf(r.name)
    if (slot === null) continue
    const set = wanted.get(r.subjectUuid) ?? new Set<string>()
    set.add(slot)
    wanted.set(r.subjectUuid, set)
  }
  if (wanted.size === 0) return []

  const changelog: NonNullable<WriteBatch['changelog']> = []
  const changed = new Set<string>()
  for (const [subjectUuid, subjectSlots] of wanted) {
    const stored = (await store.relationships.of(subjectUuid)).filter(
      (r) =>
        r.subjectUuid === subjectUuid &&
        !relationships.has(r.uuid) &&
        subjectSlots.has(slots.slotOf(r.name) ?? ''),
    )
    const facts = [...batch.relationships.filter((r) => r.subjectUuid === subjectUuid), ...stored]
    // Events of stored facts: their records and legs, read once each.
    const missing = [...new Set(stored.map((r) => r.objectUuid))].filter((u) => !entities.has(u))
    for (const e of await store.entities.get(missing)) entities.set(e.uuid, e)
    for (const r of stored) {
      relationships.set(r.uuid, r)
      const event = entities.get(r.objectUuid)
      if (event === undefined || !isEvent(event) || r.flowKey === null) continue
      if (!legsOf.has(r.flowKey))
        for (const leg of await store.relationships.of(event.uuid)) {
          relationships.set(leg.uuid, relationships.get(leg.uuid) ?? leg)
          addLeg(relationships.get(leg.uuid)!)
        }
    }
    const bySlot = new Map<string, SlotFact[]>()
    for (const r of facts) {
      const slot = slots.slotOf(r.name)
      if (slot === null || !subjectSlots.has(slot)) continue
      const event = entities.get(r.objectUuid)
      const timed = event !== undefined && isEvent(event) ? event : r
      const target =
        event !== undefined && isEvent(event)
          ? targetOf(event, legsOf.get(r.flowKey ?? '') ?? [])
          : r.objectUuid
      if (target === null) continue
      const list = bySlot.get(slot) ?? []
      list.push({
        id: r.uuid,
        objectUuid: target,
        validFrom: Date.parse(timed.validAt ?? r.validAt ?? timed.createdAt ?? r.createdAt ?? now),
        created: Date.parse(r.createdAt ?? now),
        future: r.properties.future === true,
        manual: r.invalidAt != null && typeof r.properties.invalidated_by !== 'string',
      })
      bySlot.set(slot, list)
    }
    for (const list of bySlot.values()) {
      for (const [id, ending] of supersede(list)) {
        const r = relationships.get(id)!
        const invalidAt = ending === null ? null : new Date(ending.invalidAt).toISOString()
        if ((r.invalidAt ?? null) === invalidAt) continue
        if (invalidAt === null && typeof r.properties.invalidated_by !== 'string') continue
        const by = ending === null ? null : ending.by
        const end = { invalidAt, expiredAt: invalidAt === null ? null : now }
        const legs = r.flowKey === null ? [r] : (legsOf.get(r.flowKey) ?? [r])
        for (const leg of legs) {
          const properties = { ...leg.properties }
          if (by === null) delete properties.invalidated_by
          else properties.invalidated_by = by
          const updated: Relationship = {
            ...leg,
            ...end,
            deprecated: invalidAt !== null,
            properties,
            lastUpdated: now,
          }
          relationships.set(leg.uuid, updated)
          changed.add(leg.uuid)
        }
        const event = entities.get(r.objectUuid)
        if (event !== undefined && isEvent(event)) {
          const properties = { ...event.properties }
          if (by === null) delete properties.invalidated_by
          else properties.invalidated_by = by
          entities.set(event.uuid, { ...event, ...end, properties, lastUpdated: now })
          changed.add(event.uuid)
        }
        const subject = entities.get(r.subjectUuid)
        const object = entities.get(r.objectUuid)
        if (subject !== undefined && object !== undefined)
          changelog.push(
            relationshipChange(
              'relationship_invalidated',
              subject,
              relationships.get(id)!,
              object,
              { valid_at: r.validAt ?? null, invalid_at: invalidAt, invalidated_by: by },
              `${now}:${id}:invalidated`,
            ),
          )
      }
    }
  }
  // The batch's records as changed, then the stored records this changed.
  const inBatch = (list: { uuid: string }[]) => new Set(list.map((x) => x.uuid))
  const batchRelationships = inBatch(batch.relationships)
  const batchEntities = inBatch(batch.entities)
  batch.relationships.forEach((r, i) => (batch.relationships[i] = relationships.get(r.uuid)!))
  batch.entities.forEach((e, i) => (batch.entities[i] = entities.get(e.uuid)!))
  for (const uuid of changed) {
    const r = relationships.get(uuid)
    if (r !== undefined && !batchRelationships.has(uuid)) batch.relationships.push(r)
    const e = entities.get(uuid)
    if (e !== undefined && !batchEntities.has(uuid)) batch.entities.push(e)
  }
  return changelog
}

/** What fills an event's slot: its target, else the place it occurred in. */
function targetOf(event: Entity, legs: readonly Relationship[]): string | null {
  const from = legs.filter((l) => l.subjectUuid === event.uuid)
  return (
    from.find((l) => l.name === 'TARGETED')?.objectUuid ??
    from.find((l) => l.name === 'OCCURRED_IN')?.objectUuid ??
    null
  )
}
