import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { isEvent, type Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { relationshipChange } from '../model-writes/changelog.js'
import type { SingleValuedSlots } from './single-valued.js'
import { supersede, type Ending, type SlotFact } from './supersede.js'

type Changelog = NonNullable<WriteBatch['changelog']>

/**
 * Ends the facts a write contradicts (docs/time.md, "Contradictions"): for every subject the write
 * states a single-valued fact about, the subject's stored facts of that slot and the new ones are put
 * on one timeline (`supersede`), and each fact whose end changes is rewritten: its predicate edge, the
 * other legs of its event and the event node get `invalidAt`, `expiredAt` (now), `deprecated` and
 * `properties.invalidated_by`, and one `relationship_invalidated` entry is written. Runs under the
 * brain's write lock, before the batch is committed, so the stored facts it reads are the latest. The
 * batch's records are replaced by their new versions; stored records it ends are appended to it.
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
): Promise<Changelog> {
  const stated = slotsStated(batch, slots)
  if (stated.size === 0) return []
  const facts = new FactRecords(batch, now)
  const changelog: Changelog = []
  for (const [subjectUuid, { slots: subjectSlots }] of stated) {
    const inSlots = (r: Relationship) =>
      r.subjectUuid === subjectUuid && subjectSlots.has(slots.slotOf(r.name) ?? '')
    const stored = (await store.relationships.of(subjectUuid)).filter(inSlots)
    await facts.load(store, stored)
    // The subject's facts, the batch's and the stored ones, in their latest versions.
    const uuids = new Set([...(stated.get(subjectUuid)?.edges ?? []), ...stored.map((r) => r.uuid)])
    const timelines = new Map<string, SlotFact[]>()
    for (const r of [...uuids].map((u) => facts.relationship(u)).filter(inSlots)) {
      const fact = facts.slotFact(r)
      if (fact === null) continue
      const slot = slots.slotOf(r.name)!
      timelines.set(slot, [...(timelines.get(slot) ?? []), fact])
    }
    for (const timeline of timelines.values())
      for (const [id, ending] of supersede(timeline)) {
        const entry = facts.end(id, ending)
        if (entry !== null) changelog.push(entry)
      }
  }
  facts.writeBack(batch)
  return changelog
}

/** The subjects (not events) a write states single-valued facts about: the slots, and those edges. */
function slotsStated(
  batch: { entities: Entity[]; relationships: Relationship[] },
  slots: SingleValuedSlots,
): Map<string, { slots: Set<string>; edges: string[] }> {
  const events = new Set(batch.entities.filter(isEvent).map((e) => e.uuid))
  const stated = new Map<string, { slots: Set<string>; edges: string[] }>()
  for (const r of batch.relationships) {
    const slot = slots.slotOf(r.name)
    if (slot === null || events.has(r.subjectUuid)) continue
    const subject = stated.get(r.subjectUuid) ?? { slots: new Set<string>(), edges: [] }
    subject.slots.add(slot)
    subject.edges.push(r.uuid)
    stated.set(r.subjectUuid, subject)
  }
  return stated
}

/** The records a contradiction pass reads and rewrites: the batch's, then stored ones it loads. */
class FactRecords {
  private readonly entities: Map<string, Entity>
  private readonly relationships: Map<string, Relationship>
  /** The legs of each event, by flow key. */
  private readonly legs = new Map<string, Relationship[]>()
  /** Uuids of records rewritten. */
  private readonly changed = new Set<string>()
  private readonly ownRelationships: Set<string>

  constructor(
    batch: { entities: Entity[]; relationships: Relationship[] },
    private readonly now: string,
  ) {
    this.entities = new Map(batch.entities.map((e) => [e.uuid, e]))
    this.relationships = new Map(batch.relationships.map((r) => [r.uuid, r]))
    this.ownRelationships = new Set(this.relationships.keys())
    batch.relationships.forEach((r) => this.addLeg(r))
  }

  private addLeg(r: Relationship): void {
    if (r.flowKey === null) return
    const legs = this.legs.get(r.flowKey) ?? []
    if (!legs.some((l) => l.uuid === r.uuid)) legs.push(r)
    this.legs.set(r.flowKey, legs)
  }

  /** Stored facts (the batch's own versions win), their events and the events' legs, read once. */
  async load(store: BrainStore, stored: Relationship[]): Promise<void> {
    const fresh = stored.filter((r) => !this.relationships.has(r.uuid))
    const missing = [...new Set(fresh.map((r) => r.objectUuid))].filter(
      (u) => !this.entities.has(u),
    )
    for (const e of await store.entities.get(missing)) this.entities.set(e.uuid, e)
    for (const r of fresh) {
      this.relationships.set(r.uuid, r)
      const event = this.entities.get(r.objectUuid)
      if (event === undefined || !isEvent(event) || r.flowKey === null || this.legs.has(r.flowKey))
        continue
      for (const leg of await store.relationships.of(event.uuid)) {
        if (!this.relationships.has(leg.uuid)) this.relationships.set(leg.uuid, leg)
        this.addLeg(this.relationships.get(leg.uuid)!)
      }
    }
  }

  /** The latest version of a relationship of the batch or loaded from the store. */
  relationship(uuid: string): Relationship {
    return this.relationships.get(uuid)!
  }

  /** A predicate edge as a fact on its slot's timeline, or null when nothing fills the slot. */
  slotFact(r: Relationship): SlotFact | null {
    const event = this.eventOf(r)
    const objectUuid = event === null ? r.objectUuid : this.targetOf(event, r.flowKey)
    if (objectUuid === null) return null
    const timed = event ?? r
    return {
      id: r.uuid,
      objectUuid,
      // A fact with no stated time became true when the brain learned it.
      validFrom: Date.parse(
        timed.validAt ?? r.validAt ?? timed.createdAt ?? r.createdAt ?? this.now,
      ),
      created: Date.parse(r.createdAt ?? this.now),
      future: r.properties.future === true,
      manual: r.invalidAt != null && typeof r.properties.invalidated_by !== 'string',
    }
  }

  private eventOf(r: Relationship): Entity | null {
    const event = this.entities.get(r.objectUuid)
    return event !== undefined && isEvent(event) ? event : null
  }

  /** What fills an event's slot: its target, else the place it occurred in. */
  private targetOf(event: Entity, flowKey: string | null): string | null {
    const from = (this.legs.get(flowKey ?? '') ?? []).filter((l) => l.subjectUuid === event.uuid)
    return (
      from.find((l) => l.name === 'TARGETED')?.objectUuid ??
      from.find((l) => l.name === 'OCCURRED_IN')?.objectUuid ??
      null
    )
  }

  /**
   * Gives the fact `id` the end `supersede` found (null: open again, when a contradiction had ended
   * it): its edge, its event's legs and the event. The changelog entry, or null when nothing changed.
   */
  end(id: string, ending: Ending): Changelog[number] | null {
    const r = this.relationships.get(id)!
    const invalidAt = ending === null ? null : new Date(ending.invalidAt).toISOString()
    const by = ending === null ? null : ending.by
    if ((r.invalidAt ?? null) === invalidAt) return null
    if (invalidAt === null && typeof r.properties.invalidated_by !== 'string') return null
    const window = { invalidAt, expiredAt: invalidAt === null ? null : this.now }
    const withBy = (properties: Record<string, unknown>) => {
      const { invalidated_by: _, ...rest } = properties
      return by === null ? rest : { ...rest, invalidated_by: by }
    }
    const legs = r.flowKey === null ? [r] : (this.legs.get(r.flowKey) ?? [r])
    for (const leg of legs) {
      this.relationships.set(leg.uuid, {
        ...leg,
        ...window,
        deprecated: invalidAt !== null,
        properties: withBy(leg.properties),
        lastUpdated: this.now,
      })
      this.changed.add(leg.uuid)
    }
    const event = this.eventOf(r)
    if (event !== null) {
      this.entities.set(event.uuid, {
        ...event,
        ...window,
        properties: withBy(event.properties),
        lastUpdated: this.now,
      })
      this.changed.add(event.uuid)
    }
    const subject = this.entities.get(r.subjectUuid)
    const object = this.entities.get(r.objectUuid)
    if (subject === undefined || object === undefined) return null
    return relationshipChange(
      'relationship_invalidated',
      subject,
      this.relationships.get(id)!,
      object,
      { valid_at: r.validAt ?? null, invalid_at: invalidAt, invalidated_by: by },
      `${this.now}:${id}:invalidated`,
    )
  }

  /** The batch's records replaced by their versions here; stored records that changed appended. */
  writeBack(batch: { entities: Entity[]; relationships: Relationship[] }): void {
    const ownEntities = new Set(batch.entities.map((e) => e.uuid))
    batch.relationships.forEach(
      (r, i) => (batch.relationships[i] = this.relationships.get(r.uuid)!),
    )
    batch.entities.forEach((e, i) => (batch.entities[i] = this.entities.get(e.uuid)!))
    for (const uuid of this.changed) {
      const r = this.relationships.get(uuid)
      if (r !== undefined && !this.ownRelationships.has(uuid)) batch.relationships.push(r)
      const e = this.entities.get(uuid)
      if (e !== undefined && !ownEntities.has(uuid)) batch.entities.push(e)
    }
  }
}
