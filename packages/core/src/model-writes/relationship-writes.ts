import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { BatchBuilder } from '../contracts/commit-hooks.js'
import { notFound } from '../errors.js'
import { uuidV4 } from '../ids.js'
import { nowIso } from '../model/common.js'
import { isEvent, type Entity } from '../model/entity.js'
import { toInstant } from '../time/validity.js'
import { predicateName, type Relationship } from '../model/relationship.js'
import { modelEvidence } from '../model/source.js'
import { diffProperties, relationshipChange } from './changelog.js'
import type { CreateRelationshipInput, UpdateRelationshipInput } from './write-inputs.js'

interface Deps {
  store(brainId: string): Promise<BrainStore>
  commit(brainId: string, batch: WriteBatch | BatchBuilder): Promise<void>
  loadEntity(brainId: string, uuid: string): Promise<Entity>
}

/**
 * `/model/relationship` create and update; endpoints are matched by uuid (never by name). Reads happen
 * inside the commit's builder, under the brain's write lock (see `createGraphWriter`).
 */
export function createRelationshipWrites(deps: Deps) {
  async function createRelationship(brainId: string, input: CreateRelationshipInput) {
    const relationship: Relationship = {
      uuid: uuidV4(),
      subjectUuid: input.subjectUuid,
      objectUuid: input.objectUuid,
      name: predicateName(input.predicateName),
      description: input.predicateDescription,
      amount: input.amount ?? null,
      deprecated: false,
      direction: input.direction ?? 'neutral',
      flowKey: null,
      level: null,
      properties: input.properties ?? {},
      happenedAt: input.happenedAt ?? null,
      lastUpdated: nowIso(),
      sourcePassageIds: [],
    }
    const now = relationship.lastUpdated
    Object.assign(relationship, {
      // Instants as the wire writes them (`happened_at` may be a bare date).
      validAt: toInstant(input.validAt) ?? toInstant(input.happenedAt) ?? now,
      invalidAt: toInstant(input.invalidAt),
      createdAt: now,
      expiredAt: input.invalidAt != null ? now : null,
      deprecated: input.invalidAt != null && Date.parse(input.invalidAt) <= Date.parse(now),
    })
    await deps.commit(brainId, async () => {
      const subject = await deps.loadEntity(brainId, input.subjectUuid)
      const object = await deps.loadEntity(brainId, input.objectUuid)
      return {
        relationships: [relationship],
        evidence: [modelEvidence('relationship', relationship.uuid)],
        changelog: [relationshipChange('relationship_created', subject, relationship, object)],
      }
    })
    return relationship
  }

  async function updateRelationship(brainId: string, input: UpdateRelationshipInput) {
    let updated: Relationship | undefined
    await deps.commit(brainId, async () => {
      const done = await updatedRelationship(brainId, input)
      updated = done.relationship
      return done.batch
    })
    return updated!
  }

  /** The relationship with the update applied, and its batch, from the record as stored now. */
  async function updatedRelationship(brainId: string, input: UpdateRelationshipInput) {
    const store = await deps.store(brainId)
    const [existing] = await store.relationships.get([input.uuid])
    if (existing === undefined) throw notFound('Relationship', input.uuid)
    const properties = { ...existing.properties, ...(input.newProperties ?? {}) }
    for (const key of input.propertiesToRemove ?? []) delete properties[key]
    // `deprecated` is a field of the record, set through `new_properties.deprecated` (CONTRACT.md section 2).
    const asked =
      typeof properties.deprecated === 'boolean' ? properties.deprecated : existing.deprecated
    delete properties.deprecated
    const now = nowIso()
    const window = correctedWindow(existing, input, asked, now)
    const updated: Relationship = {
      ...existing,
      properties,
      ...window,
      description: input.newDescription !== undefined ? input.newDescription : existing.description,
      lastUpdated: now,
    }
    const { deprecated } = updated
    const subject = await deps.loadEntity(brainId, existing.subjectUuid)
    const object = await deps.loadEntity(brainId, existing.objectUuid)
    const changes = diffProperties(existing.properties, updated.properties)
    if (existing.description !== updated.description) {
      changes.push({
        property: 'description',
        previous_value: existing.description,
        new_value: updated.description,
      })
    }
    const windowChanged = (existing.invalidAt ?? null) !== (updated.invalidAt ?? null)
    const type =
      // An end given as a time is an invalidation; `deprecated: true` stays a deprecation (CONTRACT.md §2).
      windowChanged && updated.invalidAt != null && input.invalidAt !== undefined
        ? 'relationship_invalidated'
        : deprecated && !existing.deprecated
          ? 'relationship_deprecated'
          : 'relationship_properties_updated'
    for (const [field, before, after] of [
      ['valid_at', existing.validAt ?? null, updated.validAt ?? null],
      ['invalid_at', existing.invalidAt ?? null, updated.invalidAt ?? null],
    ] as const)
      if (before !== after)
        changes.push({ property: field, previous_value: before, new_value: after })
    // The other legs of its event and the event state the same fact: they follow its window.
    const legs: Relationship[] = []
    const events: Entity[] = []
    if (windowChanged && existing.flowKey !== null) {
      const [event] = (await store.entities.get([existing.objectUuid])).filter(isEvent)
      if (event !== undefined) {
        events.push({ ...event, ...windowFields(updated), lastUpdated: now })
        for (const leg of await store.relationships.of(event.uuid))
          if (leg.uuid !== updated.uuid && leg.flowKey === existing.flowKey)
            legs.push({ ...leg, ...windowFields(updated), deprecated, lastUpdated: now })
      }
    }
    const batch: WriteBatch = {
      relationships: [updated, ...legs],
      ...(events.length > 0 ? { entities: events } : {}),
      evidence: [modelEvidence('relationship', updated.uuid)],
      changelog: [
        relationshipChange(type, subject, updated, object, {
          properties: changes,
          ...(windowChanged
            ? { valid_at: updated.validAt ?? null, invalid_at: updated.invalidAt ?? null }
            : {}),
        }),
      ],
    }
    return { relationship: updated, batch }
  }

  return { createRelationship, updateRelationship }
}

const windowFields = (r: Relationship) => ({
  validAt: r.validAt ?? null,
  invalidAt: r.invalidAt ?? null,
  expiredAt: r.expiredAt ?? null,
})

/**
 * The window after a correction (docs/time.md, "Corrections"): given fields replace the record's; an
 * end makes the fact deprecated once it has passed and records when the brain learned it; asking for
 * `deprecated` without an end ends the fact now; `deprecated: false` without one reopens it.
 */
function correctedWindow(
  existing: Relationship,
  input: UpdateRelationshipInput,
  asked: boolean,
  now: string,
): Pick<Relationship, 'validAt' | 'invalidAt' | 'expiredAt' | 'deprecated'> {
  const validAt =
    input.validAt !== undefined ? toInstant(input.validAt) : (existing.validAt ?? null)
  let invalidAt =
    input.invalidAt !== undefined ? toInstant(input.invalidAt) : (existing.invalidAt ?? null)
  if (input.invalidAt === undefined && asked !== existing.deprecated) invalidAt = asked ? now : null
  const changed = invalidAt !== (existing.invalidAt ?? null)
  const expiredAt = invalidAt === null ? null : changed ? now : (existing.expiredAt ?? now)
  // Without an end, only a record deprecated before windows existed (and not reopened) stays deprecated.
  const deprecated =
    invalidAt === null
      ? input.invalidAt === undefined && asked && existing.deprecated
      : Date.parse(invalidAt) <= Date.parse(now)
  return { validAt, invalidAt, expiredAt, deprecated }
}
