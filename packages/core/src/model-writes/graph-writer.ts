import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { modelEvidence } from '../model/source.js'
import type { BatchBuilder } from '../contracts/commit-hooks.js'
import { notFound } from '../errors.js'
import { uuidV4 } from '../ids.js'
import { nowIso, union } from '../model/common.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { changelogEntry, diffProperties, nodeCreated, partialNode } from './changelog.js'
import { normalizeEntityName } from './normalize-entity-name.js'
import { createRelationshipWrites } from './relationship-writes.js'
import type {
  CreateEntityInput,
  CreateRelationshipInput,
  UpdateEntityInput,
  UpdateRelationshipInput,
} from './write-inputs.js'

/** Synchronous graph writes (`/model/*`); each writes its changelog entry in the same transaction. */
export interface GraphWriter {
  createEntity(
    brainId: string,
    input: CreateEntityInput,
  ): Promise<{ entity: Entity; created: boolean }>
  updateEntity(brainId: string, input: UpdateEntityInput): Promise<Entity>
  createRelationship(brainId: string, input: CreateRelationshipInput): Promise<Relationship>
  updateRelationship(brainId: string, input: UpdateRelationshipInput): Promise<Relationship>
}

export interface GraphWriterDeps {
  store(brainId: string): Promise<BrainStore>
  /** `Engram.commit`: a builder runs under the brain's write lock. */
  commit(brainId: string, batch: WriteBatch | BatchBuilder): Promise<void>
}

function matchesIdentification(entity: Entity, params: Record<string, unknown>): boolean {
  return Object.entries(params).every(
    ([key, value]) =>
      key === 'name' || JSON.stringify(entity.properties[key]) === JSON.stringify(value),
  )
}

/**
 * Synchronous graph writes for `/model/*` (CONTRACT.md section 2). Unlike the original, an existing
 * entity keeps its uuid, writes are embedded/indexed through commit listeners, and every write has
 * its changelog entry in the same transaction. A write that changes a stored record reads it inside
 * its commit's builder, under the brain's write lock: read before, the write would put back the
 * record as it was, without what an ingestion task committed in between (its passage ids, aliases).
 */
export function createGraphWriter(deps: GraphWriterDeps): GraphWriter {
  async function loadEntity(brainId: string, uuid: string): Promise<Entity> {
    const store = await deps.store(brainId)
    const [entity] = await store.entities.get([uuid])
    if (entity === undefined) throw notFound('Entity', uuid)
    return entity
  }

  /**
   * The batch of a create: an update of the entity `identificationParams` match (same normalised
   * name, equal properties) when there is one, else a new entity. One builder for both, so two
   * identical creates at once make one entity, not two.
   */
  async function createdEntity(store: BrainStore, input: CreateEntityInput, now: string) {
    const labels = input.labels ?? []
    const params = input.identificationParams ?? {}
    if (Object.keys(params).length > 0) {
      const name = typeof params.name === 'string' ? params.name : input.name
      const candidates = await store.entities.findByName(normalizeEntityName(name))
      const existing = candidates.find((entity) => matchesIdentification(entity, params))
      if (existing !== undefined) {
        const updated: Entity = {
          ...existing,
          description: input.description ?? existing.description,
          labels: union(existing.labels, labels),
          properties: { ...existing.properties, ...(input.properties ?? {}) },
          metadata: input.metadata ?? existing.metadata,
          happenedAt: input.happenedAt ?? existing.happenedAt,
          polarity: input.polarity ?? existing.polarity,
          lastUpdated: now,
        }
        const properties = diffProperties(existing.properties, updated.properties)
        const batch: WriteBatch = {
          entities: [updated],
          evidence: [modelEvidence('entity', updated.uuid)],
          changelog: [
            changelogEntry('node_properties_updated', { node: partialNode(updated), properties }),
          ],
        }
        return { entity: updated, created: false, batch }
      }
    }
    const entity: Entity = {
      uuid: uuidV4(),
      name: input.name,
      description: input.description ?? null,
      labels,
      properties: { ...params, ...(input.properties ?? {}) },
      metadata: input.metadata ?? null,
      happenedAt: input.happenedAt ?? null,
      lastUpdated: now,
      polarity: input.polarity ?? 'neutral',
      aliases: [],
      sourcePassageIds: [],
    }
    delete entity.properties.name
    const batch: WriteBatch = {
      entities: [entity],
      evidence: [modelEvidence('entity', entity.uuid)],
      changelog: [nodeCreated(entity)],
    }
    return { entity, created: true, batch }
  }

  async function createEntity(brainId: string, input: CreateEntityInput) {
    const store = await deps.store(brainId)
    const now = nowIso()
    let done: Awaited<ReturnType<typeof createdEntity>> | undefined
    await deps.commit(brainId, async () => {
      done = await createdEntity(store, input, now)
      return done.batch
    })
    return { entity: done!.entity, created: done!.created }
  }

  async function updateEntity(brainId: string, input: UpdateEntityInput) {
    let done: Awaited<ReturnType<typeof updatedEntity>> | undefined
    await deps.commit(brainId, async () => {
      done = await updatedEntity(brainId, input)
      return done.batch
    })
    return done!.entity
  }

  /** The entity with the update applied, and its batch, from the record as stored now. */
  async function updatedEntity(brainId: string, input: UpdateEntityInput) {
    const existing = await loadEntity(brainId, input.uuid)
    const properties = { ...existing.properties, ...(input.newProperties ?? {}) }
    for (const key of input.propertiesToRemove ?? []) delete properties[key]
    const updated: Entity = {
      ...existing,
      name: input.newName ?? existing.name,
      aliases:
        input.newName !== undefined && input.newName !== existing.name
          ? union(existing.aliases, [existing.name])
          : existing.aliases,
      description: input.newDescription !== undefined ? input.newDescription : existing.description,
      labels: input.newLabels ?? existing.labels,
      properties,
      polarity: input.newPolarity ?? existing.polarity,
      happenedAt: input.newHappenedAt !== undefined ? input.newHappenedAt : existing.happenedAt,
      lastUpdated: nowIso(),
    }
    const changes = diffProperties(existing.properties, updated.properties)
    for (const field of ['name', 'description', 'labels', 'polarity', 'happenedAt'] as const) {
      if (JSON.stringify(existing[field]) !== JSON.stringify(updated[field])) {
        changes.push({
          property: field,
          previous_value: existing[field],
          new_value: updated[field],
        })
      }
    }
    const batch: WriteBatch = {
      entities: [updated],
      evidence: [modelEvidence('entity', updated.uuid)],
      changelog: [
        changelogEntry('node_properties_updated', {
          node: partialNode(updated),
          properties: changes,
        }),
      ],
    }
    return { entity: updated, batch }
  }

  return {
    createEntity,
    updateEntity,
    ...createRelationshipWrites({ ...deps, loadEntity }),
  }
}
