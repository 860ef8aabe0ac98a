import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { BatchBuilder } from '../contracts/commit-hooks.js'
import { notFound } from '../errors.js'
import { uuidV4 } from '../ids.js'
import { nowIso } from '../model/common.js'
import type { Entity } from '../model/entity.js'
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
    const deprecated =
      typeof properties.deprecated === 'boolean' ? properties.deprecated : existing.deprecated
    delete properties.deprecated
    const updated: Relationship = {
      ...existing,
      properties,
      deprecated,
      description: input.newDescription !== undefined ? input.newDescription : existing.description,
      lastUpdated: nowIso(),
    }
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
    const type =
      deprecated && !existing.deprecated
        ? 'relationship_deprecated'
        : 'relationship_properties_updated'
    const batch: WriteBatch = {
      relationships: [updated],
      evidence: [modelEvidence('relationship', updated.uuid)],
      changelog: [relationshipChange(type, subject, updated, object, { properties: changes })],
    }
    return { relationship: updated, batch }
  }

  return { createRelationship, updateRelationship }
}
