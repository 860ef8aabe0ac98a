import type { BrainStore, WriteBatch } from '../../contracts/storage-adapter.js'
import { stableId } from '../../ids.js'
import { EVENT_LABEL, isEvent, type Entity } from '../../model/entity.js'
import type { Observation } from '../../model/observation.js'
import type { EvidenceLink } from '../../model/source.js'
import { predicateName, type Relationship } from '../../model/relationship.js'
import { changelogEntry, nodeCreated, partialNode } from '../../model-writes/changelog.js'
import {
  resolveEntities,
  type EntityCandidate,
  type ResolverOptions,
} from '../resolve/entity-resolver.js'
import { mergedRelationshipChange, mergeWithStored } from '../resolve/merge-relationships.js'
import type { ExtractedText } from './extract-text.js'
import { loopYielder } from '../../loop-yielder.js'
import { endContradictedFacts } from '../../time/contradictions.js'
import { SingleValuedSlots } from '../../time/single-valued.js'
import { statedTime } from '../../time/stated-time.js'

/** Without a table (`contradictions: false`), no fact ends another. */
const NO_SLOTS = new SingleValuedSlots({})

/** The window a new fact starts with (docs/time.md): what its sentence says, else the source's time. */
function windowFromText(
  sentence: string | null,
  happenedAt: string | null,
  sourceTimestamp: string,
  now: string,
) {
  const reference = new Date(Number.isFinite(Date.parse(sourceTimestamp)) ? sourceTimestamp : now)
  const stated = statedTime(sentence ?? '', reference, happenedAt)
  return {
    window: {
      validAt: stated.validAt ?? reference.toISOString(),
      invalidAt: stated.invalidAt,
      createdAt: now,
      expiredAt: stated.invalidAt === null ? null : now,
    },
    future: stated.future,
  }
}

/**
 * The text pipeline's `resolving` after `extractText`: entity resolution against the brain, then the
 * WriteBatch (passages, merged entities and relationships, observations, changelog) that the queue
 * persists in one transaction. It reads the records it updates, so the version that is committed runs
 * under the brain's write lock; it reports no progress (the task shows `persisting` meanwhile). Every
 * id derives from the task id, so a re-run after a crash rewrites the same records (DESIGN.md section 3).
 */
export async function buildTextBatch(
  store: BrainStore,
  text: ExtractedText,
  options: {
    taskId: string
    /** The brain's single-valued predicates (`brainSlots`); none: no fact ends another. */
    slots?: SingleValuedSlots
    /**
     * Only what embedding reads (passages, and entities as resolved, whose name and description are
     * their text), for the forecast an ingestion embeds outside the brain's write lock: relationships,
     * observations, the changelog, provenance and validity windows are left to the build under the
     * lock, which is the one committed.
     */
    forecast?: boolean
  } & Pick<ResolverOptions, 'similar' | 'prepareSimilar'>,
) {
  const { taskId } = options
  const { passages, extracted, input, now } = text
  // A text of a few megabytes gives 100,000+ entities and edges: the loops below give the event loop turns.
  const pause = loopYielder()

  let entities: Entity[] = []
  const relationships: Relationship[] = []
  const observations: Observation[] = []
  const changelog: NonNullable<WriteBatch['changelog']> = []
  // Provenance, uncapped: which of this task's passages support which record (docs/forgetting.md).
  const evidence: EvidenceLink[] = []
  const cite = (kind: EvidenceLink['kind'], recordId: string, passageIds: readonly string[]) => {
    for (const evidenceId of passageIds) evidence.push({ kind, recordId, evidenceId })
  }

  let own = { entities: 0, relationships: 0 }
  if (extracted !== null) {
    const candidates: EntityCandidate[] = extracted.entities.map((e) => ({
      key: e.key,
      name: e.name,
      ...(e.aliases && e.aliases.length > 0 ? { aliases: e.aliases } : {}),
      labels: e.labels,
      description: e.description ?? null,
      properties: e.properties ?? {},
      happenedAt: e.happenedAt ?? null,
      ...(e.polarity ? { polarity: e.polarity } : {}),
      passageIds: e.passageIds,
      ...(e.labels.includes(EVENT_LABEL) ? { eventSeed: `${taskId}:${e.key}` } : {}),
    }))
    const resolutions = await resolveEntities(store, candidates, {
      brainId: store.brainId,
      now,
      ...(options.similar ? { similar: options.similar } : {}),
      ...(options.prepareSimilar ? { prepareSimilar: options.prepareSimilar } : {}),
    })
    for (const c of candidates) {
      const resolved = resolutions.get(c.key)
      if (resolved !== undefined) cite('entity', resolved.uuid, c.passageIds)
    }
    const distinct = new Map([...resolutions.values()].map((r) => [r.uuid, r]))
    if (options.forecast === true) {
      const forecast = [...distinct.values()].map((r) => r.entity)
      // Its result is never reported: counts but for passages are left at 0.
      const result = {
        passages: passages.length,
        entities: 0,
        events: 0,
        relationships: 0,
        observations: 0,
      }
      return { batch: { passages, entities: forecast }, result }
    }
    // A new event states a fact: its validity window comes from its sentence (docs/time.md).
    const futures = new Set<string>()
    for (const r of distinct.values()) {
      if (r.outcome !== 'new') continue
      r.entity = { ...r.entity, createdAt: r.entity.createdAt ?? now }
      if (!isEvent(r.entity) || r.entity.validAt != null) continue
      const { window, future } = windowFromText(
        r.entity.description,
        r.entity.happenedAt,
        input.sourceTimestamp,
        now,
      )
      r.entity = { ...r.entity, ...window }
      if (future) {
        futures.add(r.uuid)
        r.entity.properties = { ...r.entity.properties, future: true }
      }
    }
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
    const built: Relationship[] = []
    for (const rel of extracted.relationships) {
      await pause()
      const subject = resolutions.get(rel.subjectKey)
      const object = resolutions.get(rel.objectKey)
      if (subject === undefined || object === undefined || subject.uuid === object.uuid) continue
      const name = predicateName(rel.name)
      const flowKey = rel.eventKey ? stableId('flow', taskId, rel.eventKey) : null
      const uuid = stableId('relationship', subject.uuid, name, object.uuid, flowKey ?? '')
      cite('relationship', uuid, rel.passageIds)
      if (seen.has(uuid)) continue
      seen.add(uuid)
      const event = [subject, object].find((r) => r.entity.labels.includes(EVENT_LABEL))
      const window =
        event !== undefined
          ? {
              validAt: event.entity.validAt ?? null,
              invalidAt: event.entity.invalidAt ?? null,
              createdAt: now,
              expiredAt: event.entity.expiredAt ?? null,
            }
          : windowFromText(rel.description ?? null, null, input.sourceTimestamp, now).window
      built.push({
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
        properties: event !== undefined && futures.has(event.uuid) ? { future: true } : {},
        happenedAt: event?.entity.happenedAt ?? null,
        lastUpdated: now,
        sourcePassageIds: rel.passageIds,
        ...window,
      })
    }
    const mergedRelationships = await mergeWithStored(store, built, now)
    for (const merged of mergedRelationships) {
      await pause()
      const { relationship } = merged
      relationships.push(relationship)
      changelog.push(
        mergedRelationshipChange(
          merged,
          byUuid.get(relationship.subjectUuid)!,
          byUuid.get(relationship.objectUuid)!,
          `${taskId}:${relationship.uuid}`,
        ),
      )
    }
    // Facts this write contradicts end where the new ones begin (docs/time.md, "Contradictions"):
    // the batch's records are updated in place and stored ones it ends are added to it (not counted).
    own = { entities: entities.length, relationships: relationships.length }
    changelog.push(
      ...(await endContradictedFacts(
        store,
        { entities, relationships },
        options.slots ?? NO_SLOTS,
        now,
      )),
    )
    extracted.observations.forEach((obs, index) => {
      const about = resolutions.get(obs.aboutKey)
      if (about === undefined) return
      const id = stableId('observation', taskId, String(index))
      cite('observation', id, obs.passageIds)
      observations.push({
        id,
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

  const events = entities.slice(0, own.entities).filter(isEvent).length
  const batch: WriteBatch = { passages, entities, relationships, observations, changelog, evidence }
  const result = {
    passages: passages.length,
    entities: own.entities - events,
    events,
    relationships: own.relationships,
    observations: observations.length,
  }
  return { batch, result }
}
