import type { BrainStore } from '../../contracts/storage-adapter.js'
import { diffProperties, relationshipChange } from '../../model-writes/changelog.js'
import type { Entity } from '../../model/entity.js'
import { union } from '../../model/common.js'
import type { Relationship } from '../../model/relationship.js'
import { MAX_SOURCE_IDS } from './entity-resolver.js'

/**
 * Folds a relationship a write built into the stored one with the same uuid, as `mergeInto` does for
 * entities: the stored record wins where both have a value (a description or property set through
 * `/model/relationship`, `deprecated`), the new one fills gaps, and passage ids are the union.
 */
export function mergeRelationship(
  stored: Relationship,
  incoming: Relationship,
  now: string,
): Relationship {
  return {
    ...stored,
    description: stored.description ?? incoming.description,
    amount: stored.amount ?? incoming.amount,
    properties: { ...incoming.properties, ...stored.properties },
    happenedAt: stored.happenedAt ?? incoming.happenedAt,
    sourcePassageIds: union(stored.sourcePassageIds, incoming.sourcePassageIds, MAX_SOURCE_IDS),
    lastUpdated: now,
  }
}

/**
 * Each relationship merged into its stored version (one read for all), with that version (null when
 * new). Relationship uuids derive from subject, predicate, object and flow key, so an edge without an
 * event (an LLM extractor's, a structured direct edge) has the same uuid in every task that states it:
 * written as built, it would drop the passages and properties earlier writes gave it.
 */
export async function mergeWithStored(
  store: BrainStore,
  relationships: Relationship[],
  now: string,
): Promise<{ relationship: Relationship; stored: Relationship | null }[]> {
  if (relationships.length === 0) return []
  const stored = new Map(
    (await store.relationships.get(relationships.map((r) => r.uuid))).map((r) => [r.uuid, r]),
  )
  return relationships.map((relationship) => {
    const before = stored.get(relationship.uuid) ?? null
    return {
      relationship: before === null ? relationship : mergeRelationship(before, relationship, now),
      stored: before,
    }
  })
}

/**
 * The changelog entry of a relationship as `mergeWithStored` returned it: `relationship_created` when
 * it is new, else `relationship_properties_updated` with what its properties gained.
 */
export function mergedRelationshipChange(
  { relationship, stored }: { relationship: Relationship; stored: Relationship | null },
  subject: Entity,
  object: Entity,
  idSeed: string,
) {
  return stored === null
    ? relationshipChange('relationship_created', subject, relationship, object, {}, idSeed)
    : relationshipChange(
        'relationship_properties_updated',
        subject,
        relationship,
        object,
        { properties: diffProperties(stored.properties, relationship.properties) },
        idSeed,
      )
}
