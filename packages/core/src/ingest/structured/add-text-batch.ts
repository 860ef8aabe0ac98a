import type { WriteBatch } from '../../contracts/storage-adapter.js'
import { union } from '../../model/common.js'
import type { Entity } from '../../model/entity.js'
import type { Relationship } from '../../model/relationship.js'
import { MAX_SOURCE_IDS } from '../resolve/entity-resolver.js'
import { mergeRelationship } from '../resolve/merge-relationships.js'

/**
 * Two versions of one entity that one write built from the same stored record (the structured items'
 * resolution and the text's), as one: what either added is kept; where both set a field, `a` wins.
 */
function foldEntity(a: Entity, b: Entity): Entity {
  return {
    ...a,
    description: a.description ?? b.description,
    labels: union(a.labels, b.labels),
    properties: { ...b.properties, ...a.properties },
    metadata: a.metadata === null && b.metadata === null ? null : { ...b.metadata, ...a.metadata },
    happenedAt: a.happenedAt ?? b.happenedAt,
    polarity: a.polarity === 'neutral' ? b.polarity : a.polarity,
    aliases: union(a.aliases, b.aliases),
    sourcePassageIds: union(a.sourcePassageIds, b.sourcePassageIds, MAX_SOURCE_IDS),
  }
}

function byId<T>(records: T[], id: (r: T) => string, fold: (a: T, b: T) => T): T[] {
  const out = new Map<string, T>()
  for (const r of records) {
    const earlier = out.get(id(r))
    out.set(id(r), earlier === undefined ? r : fold(earlier, r))
  }
  return [...out.values()]
}

/**
 * The batch of a structured ingestion with the batch of its text (hybrid and enrich modes): passages,
 * observations and the text's entities and edges join the items' ones. An entity or edge both resolved
 * is written once with both contributions (the items' winning a conflict): written twice, the later
 * upsert would drop the text's passage ids or the items' properties.
 */
export function addTextBatch(structured: WriteBatch, text: WriteBatch, now: string): WriteBatch {
  return {
    ...structured,
    passages: [...(structured.passages ?? []), ...(text.passages ?? [])],
    entities: byId(
      [...(structured.entities ?? []), ...(text.entities ?? [])],
      (e) => e.uuid,
      foldEntity,
    ),
    relationships: byId<Relationship>(
      [...(structured.relationships ?? []), ...(text.relationships ?? [])],
      (r) => r.uuid,
      (a, b) => mergeRelationship(a, b, now),
    ),
    observations: [...(structured.observations ?? []), ...(text.observations ?? [])],
    changelog: [...(structured.changelog ?? []), ...(text.changelog ?? [])],
    evidence: [...(structured.evidence ?? []), ...(text.evidence ?? [])],
  }
}
