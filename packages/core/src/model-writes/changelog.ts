import type { ChangelogEntry, ChangeType } from '../model/changelog-entry.js'
import { nowIso } from '../model/common.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { stableId, uuidV4 } from '../ids.js'

/** The node shape inside a change (spec section 2.6): description, labels, name, properties, uuid. */
export function partialNode(entity: Entity) {
  return {
    uuid: entity.uuid,
    name: entity.name,
    description: entity.description,
    labels: entity.labels,
    properties: entity.properties,
  }
}

/** The predicate shape inside a change: amount, description, name, properties, uuid. */
export function partialPredicate(relationship: Relationship) {
  return {
    uuid: relationship.uuid,
    name: relationship.name,
    description: relationship.description,
    amount: relationship.amount,
    properties: relationship.properties,
  }
}

export interface PropertyChange {
  property: string
  previous_value: unknown
  new_value: unknown
}

/**
 * Builds a changelog entry. `idSeed` makes the id deterministic (a task re-run writes the same entry,
 * which the adapter then skips); without it the id is random. The type is not part of the seed: a
 * re-run may see its own first run's node as "merged" rather than "created" and must still collide.
 */
export function changelogEntry(
  type: ChangeType,
  change: Record<string, unknown>,
  idSeed?: string,
): Omit<ChangelogEntry, 'seq'> {
  return {
    id: idSeed === undefined ? uuidV4() : stableId('changelog', idSeed),
    timestamp: nowIso(),
    type,
    change: { type, ...change },
  }
}

export function nodeCreated(entity: Entity, idSeed?: string) {
  return changelogEntry('node_created', { node: partialNode(entity) }, idSeed)
}

export function relationshipChange(
  type: ChangeType,
  subject: Entity,
  relationship: Relationship,
  object: Entity,
  extra: Record<string, unknown> = {},
  idSeed?: string,
) {
  return changelogEntry(
    type,
    {
      subject: partialNode(subject),
      predicate: partialPredicate(relationship),
      object: partialNode(object),
      ...extra,
    },
    idSeed,
  )
}

/** Lists what changed between two property maps (for `*_properties_updated` entries). */
export function diffProperties(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): PropertyChange[] {
  const changes: PropertyChange[] = []
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const previous = before[key]
    const next = after[key]
    if (JSON.stringify(previous) !== JSON.stringify(next)) {
      changes.push({ property: key, previous_value: previous ?? null, new_value: next ?? null })
    }
  }
  return changes
}

export { nowIso }
