import { endContradictedFacts } from '../../time/contradictions.js'
import type { SingleValuedSlots } from '../../time/single-valued.js'
import { toInstant } from '../../time/validity.js'
import type { BrainStore, WriteBatch } from '../../contracts/storage-adapter.js'
import type { EvidenceLink } from '../../model/source.js'
import { EngramError } from '../../errors.js'
import { stableId } from '../../ids.js'
import { EVENT_LABEL, type Entity } from '../../model/entity.js'
import { predicateName, type Relationship } from '../../model/relationship.js'
import { nodeCreated, changelogEntry, partialNode } from '../../model-writes/changelog.js'
import { normalizeEntityName } from '../../model-writes/normalize-entity-name.js'
import type {
  StructuredIngestPayload,
  StructuredNode,
  StructuredPredicate,
} from '../ingest-payloads.js'
import {
  resolveEntities,
  type EntityCandidate,
  type Resolution,
  type ResolverOptions,
} from '../resolve/entity-resolver.js'
import {
  mergedRelationshipChange,
  mergeRelationship,
  mergeWithStored,
} from '../resolve/merge-relationships.js'

export interface StructuredBuildContext {
  brainId: string
  taskId: string
  version: string
  now: string
  similar?: ResolverOptions['similar']
  prepareSimilar?: ResolverOptions['prepareSimilar']
  /** The brain's single-valued predicates (docs/time.md); none: no fact ends another. */
  slots?: SingleValuedSlots
}

export interface StructuredBuild {
  batch: WriteBatch
  counts: { entities: number; relationships: number; events: number; structured: number }
  /** Resolved entity uuid per local key (the anchor is `anchor`). */
  resolutions: Map<string, Resolution>
}

function nodeCandidate(
  node: StructuredNode,
  key: string,
  isEvent: boolean,
  eventSeed?: string,
): EntityCandidate {
  const labels =
    node.labels !== undefined && node.labels.length > 0 ? node.labels : [node.type.toUpperCase()]
  return {
    key,
    name: node.name,
    labels: isEvent && !labels.includes(EVENT_LABEL) ? [EVENT_LABEL, ...labels] : labels,
    description: node.description ?? null,
    properties: node.properties ?? {},
    happenedAt: node.happenedAt ?? null,
    passageIds: [],
    ...(node.uuid !== undefined ? { uuid: node.uuid } : {}),
    ...(eventSeed !== undefined ? { eventSeed } : {}),
  }
}

/**
 * Deterministic structured ingestion (CONTRACT.md section 3; original-notes B.6): full items form
 * subject -subj_event-> event -event_obj-> object sharing one flow key, partial items event -> object
 * (with the anchor, when given, as the actor), direct items subject -subj_event-> object (the anchor
 * standing in for a missing subject), node items only their node. The accepted shapes are
 * STRUCTURED_ITEM_SHAPES. No extractor.
 * It reads what it updates (the anchor, entities to merge into, stored edges), so the batch that is
 * committed is built under the brain's write lock.
 */
export async function buildStructuredBatch(
  store: BrainStore,
  payload: StructuredIngestPayload,
  ctx: StructuredBuildContext,
): Promise<StructuredBuild> {
  const candidates: EntityCandidate[] = []
  let anchorKey: string | null = null

  if (payload.anchor !== null) {
    if ('uuid' in payload.anchor) {
      const [found] = await store.entities.get([payload.anchor.uuid])
      if (found === undefined) {
        throw new EngramError(
          'RESOURCE_NOT_FOUND',
          `Anchor entity '${payload.anchor.uuid}' does not exist in this brain.`,
        )
      }
      candidates.push({
        key: 'anchor',
        name: found.name,
        labels: found.labels,
        passageIds: [],
        uuid: found.uuid,
      })
    } else {
      candidates.push({
        key: 'anchor',
        name: payload.anchor.name,
        labels: [payload.anchor.type.toUpperCase()],
        passageIds: [],
      })
    }
    anchorKey = 'anchor'
  }

  payload.items.forEach((item, index) => {
    if (item.subject !== undefined)
      candidates.push(nodeCandidate(item.subject, `${index}:subject`, false))
    if (item.event !== undefined) {
      candidates.push(
        nodeCandidate(
          item.event,
          `${index}:event`,
          true,
          `${ctx.taskId}:${index}:${normalizeEntityName(item.event.name)}`,
        ),
      )
    }
    candidates.push(nodeCandidate(item.object, `${index}:object`, false))
  })

  const resolutions = await resolveEntities(store, candidates, {
    brainId: ctx.brainId,
    now: ctx.now,
    ...(ctx.similar !== undefined ? { similar: ctx.similar } : {}),
    ...(ctx.prepareSimilar !== undefined ? { prepareSimilar: ctx.prepareSimilar } : {}),
  })
  const uuidOf = (key: string) => resolutions.get(key)!.uuid
  const entityOf = (key: string) => resolutions.get(key)!.entity

  /** By uuid: a direct edge stated twice is one edge with both statements merged. */
  const built = new Map<string, Relationship>()
  const edge = (
    subjectKey: string,
    predicate: StructuredPredicate,
    objectKey: string,
    flowKey: string | null,
    happenedAt: string | null,
  ) => {
    const name = predicateName(predicate.name)
    const subjectUuid = uuidOf(subjectKey)
    const objectUuid = uuidOf(objectKey)
    const relationship: Relationship = {
      uuid: stableId('relationship', subjectUuid, name, objectUuid, flowKey ?? ''),
      subjectUuid,
      objectUuid,
      name,
      description: predicate.description ?? null,
      amount: predicate.amount ?? null,
      deprecated: false,
      direction: 'neutral',
      flowKey,
      level: null,
      properties: predicate.properties ?? {},
      happenedAt,
      lastUpdated: ctx.now,
      sourcePassageIds: [],
      // A structured fact holds from its date, else from when it was written (docs/time.md).
      validAt: toInstant(happenedAt) ?? ctx.now,
      invalidAt: null,
      createdAt: ctx.now,
      expiredAt: null,
    }
    const earlier = built.get(relationship.uuid)
    built.set(
      relationship.uuid,
      earlier === undefined ? relationship : mergeRelationship(earlier, relationship, ctx.now),
    )
  }

  payload.items.forEach((item, index) => {
    const actorKey = item.subject !== undefined ? `${index}:subject` : anchorKey
    if (item.event !== undefined && item.eventObj !== undefined) {
      const flowKey = stableId('flow', ctx.taskId, String(index))
      const happenedAt = item.event.happenedAt ?? null
      if (actorKey !== null)
        edge(actorKey, item.subjEvent ?? { name: 'MADE' }, `${index}:event`, flowKey, happenedAt)
      edge(`${index}:event`, item.eventObj, `${index}:object`, flowKey, happenedAt)
    } else if (item.subjEvent !== undefined) {
      if (actorKey !== null) edge(actorKey, item.subjEvent, `${index}:object`, null, null)
    }
    // A node item (only `object`) writes its node and no edge (STRUCTURED_ITEM_SHAPES).
  })

  const merged = await mergeWithStored(store, [...built.values()], ctx.now)
  const relationships = merged.map((m) => m.relationship)
  const distinct = new Map<string, Resolution>()
  for (const resolution of resolutions.values()) {
    if (resolution.outcome === 'new') {
      const e = resolution.entity
      resolution.entity = {
        ...e,
        createdAt: e.createdAt ?? ctx.now,
        ...(e.labels.includes(EVENT_LABEL) && e.validAt == null
          ? { validAt: toInstant(e.happenedAt) ?? ctx.now }
          : {}),
      }
    }
    distinct.set(resolution.uuid, resolution)
  }
  const entities: Entity[] = [...distinct.values()].map((r) => r.entity)
  const ownRelationships = relationships.length
  const ownEntities = entities.length
  const byUuid = new Map(entities.map((e) => [e.uuid, e]))
  const changelog = [
    // Facts this write contradicts end (docs/time.md); stored records it ends join the batch.
    ...(ctx.slots === undefined
      ? []
      : await endContradictedFacts(store, { entities, relationships }, ctx.slots, ctx.now)),
    ...[...distinct.values()].map((r) =>
      r.outcome === 'new'
        ? nodeCreated(r.entity, `${ctx.taskId}:${r.uuid}`)
        : changelogEntry(
            'node_merged',
            { node: partialNode(r.entity), reason: r.reason },
            `${ctx.taskId}:${r.uuid}`,
          ),
    ),
    ...merged.map((m) =>
      mergedRelationshipChange(
        m,
        byUuid.get(m.relationship.subjectUuid)!,
        byUuid.get(m.relationship.objectUuid)!,
        `${ctx.taskId}:${m.relationship.uuid}`,
      ),
    ),
  ]

  const structured = {
    id: ctx.taskId,
    data: {
      items: payload.items,
      text: payload.text,
      anchor:
        anchorKey === null ? null : { uuid: uuidOf(anchorKey), name: entityOf(anchorKey).name },
      mode: payload.mode,
    },
    types: ['ingestion_structured'],
    metadata: { task_id: ctx.taskId },
    insertedAt: ctx.now,
    brainVersion: ctx.version,
  }

  // Provenance (docs/forgetting.md): the structured record supports every node and edge it states.
  const evidence: EvidenceLink[] = [
    ...entities.slice(0, ownEntities).map((e) => ({
      kind: 'entity' as const,
      recordId: e.uuid,
      evidenceId: structured.id,
    })),
    ...relationships.slice(0, ownRelationships).map((r) => ({
      kind: 'relationship' as const,
      recordId: r.uuid,
      evidenceId: structured.id,
    })),
  ]

  return {
    batch: { entities, relationships, changelog, structured: [structured], evidence },
    counts: {
      entities: entities.slice(0, ownEntities).filter((e) => !e.labels.includes(EVENT_LABEL))
        .length,
      events: entities.slice(0, ownEntities).filter((e) => e.labels.includes(EVENT_LABEL)).length,
      relationships: ownRelationships,
      structured: 1,
    },
    resolutions,
  }
}
