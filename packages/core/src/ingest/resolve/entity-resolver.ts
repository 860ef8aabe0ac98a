import type { ExtractedEntity } from '../../contracts/extractor.js'
import type { BrainStore } from '../../contracts/storage-adapter.js'
import { stableId } from '../../ids.js'
import { union } from '../../model/common.js'
import { EVENT_LABEL, type Entity } from '../../model/entity.js'
import { normalizeEntityName, otherNames } from '../../model-writes/normalize-entity-name.js'
import { analyze } from '../../analysis/analyze.js'
import { loopYielder } from '../../loop-yielder.js'

/** An entity as extraction or structured input describes it, before it has an identity in the brain. */
export interface EntityCandidate extends ExtractedEntity {
  /** An explicit uuid (structured input): resolved first. */
  uuid?: string
  /** Events get ids from this seed (e.g. passage id + event index) and are never merged by name. */
  eventSeed?: string
}

export interface Resolution {
  key: string
  uuid: string
  /** The record to write (new, or the existing one with the candidate merged in). */
  entity: Entity
  outcome: 'new' | 'merged'
  reason: 'uuid' | 'name' | 'embedding' | null
  similarity: number | null
  /** Near matches too close to call (ambiguity band): kept separate, recorded for review. */
  mergeCandidates: { uuid: string; name: string; similarity: number }[]
}

export interface ResolverOptions {
  brainId: string
  now: string
  /** Nearest existing entities by embedding of `name + description`, best first (cosine in [-1, 1]). */
  similar?: (candidate: EntityCandidate) => Promise<{ uuid: string; score: number }[]>
  /**
   * Called once, before any `similar`, with the candidates it may be asked about (no uuid, not an
   * event, no stored entity of that name and compatible labels), so their texts embed in one call.
   */
  prepareSimilar?: (candidates: EntityCandidate[]) => Promise<void>
  /** Cosine at or above which an embedding match merges (default 0.9, as the original). */
  threshold?: number
  /** Two candidates within this cosine of each other are ambiguous (default 0.02). */
  ambiguityBand?: number
}

const GENERIC_LABELS = new Set(['CONCEPT', 'ENTITY', 'THING'])
/** Most passage ids kept on one entity or relationship (the first ones cited). */
export const MAX_SOURCE_IDS = 500

function specific(labels: string[]): string[] {
  return labels.filter((label) => !GENERIC_LABELS.has(label))
}

/**
 * The lexical guard of the embedding step: one name's content words (stopwords dropped, Porter2 stems)
 * all occur in the other's ("New York" / "New York City", "support group" / "support groups"). A
 * sentence encoder puts names that differ in one distinguishing word closer than names of one thing:
 * with USE-lite, "1996 Summer Olympics" / "2000 Summer Olympics" 0.957, "Super Bowl XLII" / "XLIII"
 * 0.994, "UC Berkeley" / "UC Los Angeles" 0.924, against "US" / "United States" 0.738. Without the
 * guard those merges cost MuSiQue R@5 0.016 (benchmarks/LOG.md). A standard blocking rule of entity
 * resolution (Christen, "Data Matching", 2012, ch. 4): similarity is only trusted within a block.
 */
export function namesNest(a: string, b: string): boolean {
  const ta = new Set(analyze(a))
  const tb = new Set(analyze(b))
  if (ta.size === 0 || tb.size === 0) return false
  const within = (x: Set<string>, y: Set<string>) => [...x].every((t) => y.has(t))
  return within(ta, tb) || within(tb, ta)
}

/** Labels are compatible when they share one, or when either side has only generic labels. */
export function labelsCompatible(a: string[], b: string[]): boolean {
  if (a.includes(EVENT_LABEL) || b.includes(EVENT_LABEL)) return false
  const sa = specific(a)
  const sb = specific(b)
  if (sa.length === 0 || sb.length === 0) return true
  return sa.some((label) => sb.includes(label))
}

function freshEntity(candidate: EntityCandidate, uuid: string, now: string): Entity {
  return {
    uuid,
    name: candidate.name,
    description: candidate.description ?? null,
    labels: candidate.labels,
    properties: candidate.properties ?? {},
    metadata: null,
    happenedAt: candidate.happenedAt ?? null,
    lastUpdated: now,
    polarity: candidate.polarity ?? 'neutral',
    aliases: otherNames(candidate.name, candidate.aliases ?? []),
    sourcePassageIds: candidate.passageIds.slice(0, MAX_SOURCE_IDS),
  }
}

/**
 * Labels with the types (`PERSON`, `ORGANIZATION` ...) before the generic ones, each group in its order:
 * a name first read as a concept ("Apple announced ...") and typed by a later mention ("joined Apple")
 * shows its type, which `labels[0]` is to a reader (the console colours a node by it).
 */
function typesFirst(labels: string[]): string[] {
  const types = specific(labels)
  return types.length === labels.length || types.length === 0
    ? labels
    : [...types, ...labels.filter((label) => GENERIC_LABELS.has(label))]
}

/** Folds a candidate into an existing entity: fills gaps, adds labels, aliases and provenance. */
export function mergeInto(existing: Entity, candidate: EntityCandidate, now: string): Entity {
  const sameName = normalizeEntityName(existing.name) === normalizeEntityName(candidate.name)
  return {
    ...existing,
    description: existing.description ?? candidate.description ?? null,
    labels: typesFirst(union(existing.labels, candidate.labels)),
    properties: { ...(candidate.properties ?? {}), ...existing.properties },
    happenedAt: existing.happenedAt ?? candidate.happenedAt ?? null,
    polarity:
      existing.polarity === 'neutral' ? (candidate.polarity ?? 'neutral') : existing.polarity,
    aliases: union(
      existing.aliases,
      otherNames(existing.name, [
        ...(sameName ? [] : [candidate.name]),
        ...(candidate.aliases ?? []),
      ]),
    ),
    sourcePassageIds: union(existing.sourcePassageIds, candidate.passageIds, MAX_SOURCE_IDS),
    lastUpdated: now,
  }
}

/**
 * Entity resolution (DESIGN.md section 3): exact uuid -> normalised name or alias with a compatible
 * label -> embedding similarity above a threshold with an ambiguity band. Events are never merged by
 * name. Candidates of one task that resolve to the same entity are folded together.
 * Thresholds follow the original (cosine 0.9, band 0.02; original-notes section B.5).
 *
 * Linear in the number of candidates: the entities this task already resolved are indexed by
 * normalised name and alias (a text of a few megabytes yields 100,000+ candidates; a scan of the
 * task's entities per candidate was quadratic), and every key sees its entity's final merged record
 * through one pass at the end instead of a rewrite of all earlier keys per candidate.
 */
export async function resolveEntities(
  store: BrainStore,
  candidates: EntityCandidate[],
  options: ResolverOptions,
): Promise<Map<string, Resolution>> {
  const threshold = options.threshold ?? 0.9
  const band = options.ambiguityBand ?? 0.02
  /** Each key's resolution as settled; its `entity` is replaced by the final record at the end. */
  const settled = new Map<string, Resolution>()
  /** The latest resolution per entity, in order of first resolution (the order the in-task match prefers). */
  const byUuid = new Map<string, Resolution>()
  const firstSeen = new Map<string, number>()
  /** Normalised name or alias -> uuids of this task's entities carrying it (only ever grows). */
  const byName = new Map<string, Set<string>>()
  const pause = loopYielder()

  /** Stored entities per normalised name: resolution writes nothing, so one read per name suffices. */
  const storedNamed = new Map<string, Entity[]>()
  const findStored = async (normalized: string) => {
    let found = storedNamed.get(normalized)
    if (found === undefined)
      storedNamed.set(normalized, (found = await store.entities.findByName(normalized)))
    return found
  }
  if (options.similar !== undefined && options.prepareSimilar !== undefined) {
    const asked: EntityCandidate[] = []
    for (const candidate of candidates) {
      if (candidate.uuid !== undefined || candidate.labels.includes(EVENT_LABEL)) continue
      const named = await findStored(normalizeEntityName(candidate.name))
      if (!named.some((e) => labelsCompatible(e.labels, candidate.labels))) asked.push(candidate)
      await pause()
    }
    if (asked.length > 0) await options.prepareSimilar(asked)
  }

  /** How many of an entity's names (name, then aliases) are indexed: aliases only ever get appended. */
  const indexed = new Map<string, number>()
  const indexNames = (entity: Entity) => {
    const names = [entity.name, ...entity.aliases]
    for (let i = indexed.get(entity.uuid) ?? 0; i < names.length; i++) {
      const norm = normalizeEntityName(names[i]!)
      let uuids = byName.get(norm)
      if (uuids === undefined) byName.set(norm, (uuids = new Set()))
      uuids.add(entity.uuid)
    }
    indexed.set(entity.uuid, names.length)
  }

  const settle = (candidate: EntityCandidate, base: Resolution) => {
    const previous = byUuid.get(base.uuid)
    const resolution =
      previous === undefined
        ? base
        : {
            ...previous,
            key: candidate.key,
            entity: mergeInto(previous.entity, candidate, options.now),
          }
    if (!firstSeen.has(resolution.uuid)) firstSeen.set(resolution.uuid, firstSeen.size)
    byUuid.set(resolution.uuid, resolution)
    settled.set(candidate.key, resolution)
    indexNames(resolution.entity)
  }

  /** The earliest-resolved entity of this task with this name or alias and compatible labels. */
  const inTask = (normalized: string, labels: string[]): Resolution | undefined => {
    let best: Resolution | undefined
    for (const uuid of byName.get(normalized) ?? []) {
      const r = byUuid.get(uuid)!
      if (r.entity.labels.includes(EVENT_LABEL) || !labelsCompatible(r.entity.labels, labels))
        continue
      if (best === undefined || firstSeen.get(uuid)! < firstSeen.get(best.uuid)!) best = r
    }
    return best
  }

  /**
   * The similarity step: settles `candidate` into the one stored entity of compatible labels and a
   * nesting name whose vector is within the threshold, clearly ahead of any other (null: settled), or
   * returns the entities it could have been (`merge_candidates`).
   */
  const bySimilarity = async (
    candidate: EntityCandidate,
    similar: NonNullable<ResolverOptions['similar']>,
  ): Promise<Resolution['mergeCandidates'] | null> => {
    const now = options.now
    const hits = (await similar(candidate)).filter((hit) => hit.score >= threshold)
    const existing = hits.length === 0 ? [] : await store.entities.get(hits.map((h) => h.uuid))
    const compatible = hits
      .map((hit) => ({ hit, entity: existing.find((e) => e.uuid === hit.uuid) }))
      .filter(
        (x): x is { hit: { uuid: string; score: number }; entity: Entity } =>
          x.entity !== undefined &&
          labelsCompatible(x.entity.labels, candidate.labels) &&
          [x.entity.name, ...x.entity.aliases].some((n) => namesNest(candidate.name, n)),
      )
    const [first, second] = compatible
    if (
      first !== undefined &&
      (second === undefined || first.hit.score - second.hit.score >= band)
    ) {
      settle(candidate, {
        key: candidate.key,
        uuid: first.entity.uuid,
        entity: mergeInto(first.entity, candidate, now),
        outcome: 'merged',
        reason: 'embedding',
        similarity: first.hit.score,
        mergeCandidates: [],
      })
      return null
    }
    return compatible.map(({ hit, entity }) => ({
      uuid: entity.uuid,
      name: entity.name,
      similarity: hit.score,
    }))
  }

  /**
   * One candidate's resolution, settled. The loop's body is a function of its own (and the similarity
   * step another) so that V8 optimises and deoptimises each apart: as one function, a deoptimisation
   * in a rare branch recompiled all of it, some twelve times over a LoCoMo run (benchmarks/LOG.md,
   * 2026-12-02).
   */
  const resolveOne = async (candidate: EntityCandidate): Promise<void> => {
    const now = options.now

    if (candidate.uuid !== undefined) {
      const [existing] = await store.entities.get([candidate.uuid])
      const entity = byUuid.get(candidate.uuid)?.entity ?? existing
      settle(candidate, {
        key: candidate.key,
        uuid: candidate.uuid,
        entity: entity
          ? mergeInto(entity, candidate, now)
          : freshEntity(candidate, candidate.uuid, now),
        outcome: entity ? 'merged' : 'new',
        reason: entity ? 'uuid' : null,
        similarity: null,
        mergeCandidates: [],
      })
      return
    }

    if (candidate.labels.includes(EVENT_LABEL)) {
      const uuid = stableId('event', options.brainId, candidate.eventSeed ?? candidate.key)
      const [existing] = await store.entities.get([uuid])
      settle(candidate, {
        key: candidate.key,
        uuid,
        // A re-run of the same task rebuilds the same event: take the candidate as the truth.
        entity: existing
          ? { ...freshEntity(candidate, uuid, now), aliases: existing.aliases }
          : freshEntity(candidate, uuid, now),
        outcome: 'new',
        reason: null,
        similarity: null,
        mergeCandidates: [],
      })
      return
    }

    const normalized = normalizeEntityName(candidate.name)
    const sameTask = inTask(normalized, candidate.labels)
    if (sameTask !== undefined) {
      settle(candidate, { ...sameTask, key: candidate.key })
      return
    }

    const named = (await findStored(normalized)).filter((e) =>
      labelsCompatible(e.labels, candidate.labels),
    )
    if (named.length > 0) {
      const overlap = (e: Entity) => e.labels.filter((l) => candidate.labels.includes(l)).length
      const best = [...named].sort(
        (a, b) => overlap(b) - overlap(a) || a.uuid.localeCompare(b.uuid),
      )[0]!
      settle(candidate, {
        key: candidate.key,
        uuid: best.uuid,
        entity: mergeInto(best, candidate, now),
        outcome: 'merged',
        reason: 'name',
        similarity: null,
        mergeCandidates: [],
      })
      return
    }

    let mergeCandidates: Resolution['mergeCandidates'] = []
    if (options.similar !== undefined) {
      const found = await bySimilarity(candidate, options.similar)
      if (found === null) return
      mergeCandidates = found
    }

    const uuid = stableId(
      'entity',
      options.brainId,
      normalized,
      specific(candidate.labels)[0] ?? candidate.labels[0] ?? '',
    )
    const [existing] = await store.entities.get([uuid])
    const entity = existing
      ? mergeInto(existing, candidate, now)
      : freshEntity(candidate, uuid, now)
    if (mergeCandidates.length > 0)
      entity.metadata = { ...(entity.metadata ?? {}), merge_candidates: mergeCandidates }
    settle(candidate, {
      key: candidate.key,
      uuid,
      entity,
      outcome: existing ? 'merged' : 'new',
      reason: existing ? 'name' : null,
      similarity: null,
      mergeCandidates,
    })
  }

  for (const candidate of candidates) {
    await pause()
    await resolveOne(candidate)
  }
  // Every key of an entity sees its final merged record (earlier keys were settled before later merges).
  const resolutions = new Map<string, Resolution>()
  for (const [key, r] of settled) resolutions.set(key, { ...r, entity: byUuid.get(r.uuid)!.entity })
  return resolutions
}
