import type { WriteBatch } from '../../contracts/storage-adapter.js'
import type { TaskContext } from '../../engine/engine-types.js'
import { stableId } from '../../ids.js'
import { EVENT_LABEL, type Entity } from '../../model/entity.js'
import type { Observation } from '../../model/observation.js'
import type { Passage } from '../../model/passage.js'
import { predicateName, type Relationship } from '../../model/relationship.js'
import {
  changelogEntry,
  nodeCreated,
  partialNode,
  relationshipChange,
} from '../../graph-writes/changelog.js'
import { resolveEntities, type EntityCandidate } from '../resolve/entity-resolver.js'
import type { IngestionComponents } from './ingestion-components.js'
import { loopYielder } from './loop-yielder.js'

export interface TextBatchInput {
  text: string
  metaKeys: Record<string, string | number | boolean>
  observateFor: string[]
  sourceTimestamp: string
  skipEnrichment: boolean
}

export interface TextBatchOptions {
  components: IngestionComponents
  version: string
  similar?: (candidate: EntityCandidate) => Promise<{ uuid: string; score: number }[]>
}

/**
 * The text pipeline after `source`: chunking -> extracting -> resolving, producing one WriteBatch
 * (embedded afterwards by `embedMissing`) that the queue persists in one transaction. Every id is derived from the task id, so a
 * re-run after a crash rewrites the same records (DESIGN.md section 3).
 */
export async function buildTextBatch(
  ctx: TaskContext,
  input: TextBatchInput,
  options: TextBatchOptions,
) {
  const { components } = options
  const taskId = ctx.task.id
  const brainId = ctx.task.brainId
  const now = new Date().toISOString()
  // A text of a few megabytes gives 100,000+ entities and edges: the loops below give the event loop turns.
  const pause = loopYielder()

  await ctx.progress('chunking')
  const passages: Passage[] = components.chunk(input.text).map((chunk) => ({
    id: stableId('passage', taskId, String(chunk.index)),
    text: chunk.text,
    metadata: { ...input.metaKeys },
    insertedAt: now,
    brainVersion: options.version,
    source: taskId,
    position: chunk.index,
    start: chunk.start,
    end: chunk.end,
  }))
  await ctx.progress('chunking', { passages: passages.length })

  let entities: Entity[] = []
  const relationships: Relationship[] = []
  const observations: Observation[] = []
  const changelog: NonNullable<WriteBatch['changelog']> = []

  if (!input.skipEnrichment && passages.length > 0) {
    await ctx.progress('extracting')
    const extracted = await components.extract(
      {
        passages: passages.map((p) => ({ id: p.id, text: p.text })),
        sourceTimestamp: input.sourceTimestamp,
        observateFor: input.observateFor,
      },
      ctx.signal,
    )
    await ctx.progress('resolving', {
      extracted_entities: extracted.entities.length,
      extracted_relationships: extracted.relationships.length,
      ...(extracted.usage
        ? {
            prompt_tokens: extracted.usage.promptTokens,
            completion_tokens: extracted.usage.completionTokens,
          }
        : {}),
    })
    const candidates: EntityCandidate[] = extracted.entities.map((e) => ({
      key: e.key,
      name: e.name,
      labels: e.labels,
      description: e.description ?? null,
      properties: e.properties ?? {},
      happenedAt: e.happenedAt ?? null,
      ...(e.polarity ? { polarity: e.polarity } : {}),
      passageIds: e.passageIds,
      ...(e.labels.includes(EVENT_LABEL) ? { eventSeed: `${taskId}:${e.key}` } : {}),
    }))
    const resolutions = await resolveEntities(ctx.store, candidates, {
      brainId,
      now,
      ...(options.similar ? { similar: options.similar } : {}),
    })
    const distinct = new Map([...resolutions.values()].map((r) => [r.uuid, r]))
    entities = [...distinct.values()].map((r) => r.entity)
    for (const r of distinct.values()) {
      await pause()
      changelog.push(
        r.outcome === 'new'
          ? nodeCreated(r.entity, `${taskId}:${r.uuid}`)
          : changelogEntry(
              'node_merged',
              { node: partialNode(r.entity), reason: r.reason, similarity: r.similarity },
              `${taskId}:${r.uuid}`,
            ),
      )
    }
    const byUuid = new Map(entities.map((e) => [e.uuid, e]))
    const seen = new Set<string>()
    for (const rel of extracted.relationships) {
      await pause()
      const subject = resolutions.get(rel.subjectKey)
      const object = resolutions.get(rel.objectKey)
      if (subject === undefined || object === undefined || subject.uuid === object.uuid) continue
      const name = predicateName(rel.name)
      const flowKey = rel.eventKey ? stableId('flow', taskId, rel.eventKey) : null
      const uuid = stableId('relationship', subject.uuid, name, object.uuid, flowKey ?? '')
      if (seen.has(uuid)) continue
      seen.add(uuid)
      const event = [subject, object].find((r) => r.entity.labels.includes(EVENT_LABEL))
      const relationship: Relationship = {
        uuid,
        subjectUuid: subject.uuid,
        objectUuid: object.uuid,
        name,
        description: rel.description ?? null,
        amount: rel.amount ?? null,
        deprecated: false,
        direction: 'neutral',
        flowKey,
        level: null,
        properties: {},
        happenedAt: event?.entity.happenedAt ?? null,
        lastUpdated: now,
        sourcePassageIds: rel.passageIds,
      }
      relationships.push(relationship)
      changelog.push(
        relationshipChange(
          'relationship_created',
          byUuid.get(subject.uuid)!,
          relationship,
          byUuid.get(object.uuid)!,
          {},
          `${taskId}:${uuid}`,
        ),
      )
    }
    extracted.observations.forEach((obs, index) => {
      const about = resolutions.get(obs.aboutKey)
      if (about === undefined) return
      observations.push({
        id: stableId('observation', taskId, String(index)),
        resourceId: about.uuid,
        text: obs.text,
        metadata: {
          ...input.metaKeys,
          labels: obs.labels ?? about.entity.labels,
          polarity: obs.polarity ?? 'neutral',
          passage_ids: obs.passageIds,
        },
        insertedAt: now,
      })
    })
  }

  const events = entities.filter((e) => e.labels.includes(EVENT_LABEL)).length
  const batch: WriteBatch = { passages, entities, relationships, observations, changelog }
  const result = {
    passages: passages.length,
    entities: entities.length - events,
    events,
    relationships: relationships.length,
    observations: observations.length,
  }
  return { batch, result }
}
