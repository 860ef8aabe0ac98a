import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { changelogEntry } from '../model-writes/changelog.js'
import { normalizeEntityName } from '../model-writes/normalize-entity-name.js'
import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import type { EvidenceKind, EvidenceLink } from '../model/source.js'
import { MAX_SOURCE_IDS } from '../ingest/resolve/entity-resolver.js'

/**
 * Forgetting with a full cascade (docs/forgetting.md; DESIGN.md section 1b, "provenance drives
 * forgetting"): given the evidence to forget (passages, structured records), the batch that leaves
 * the brain as if that evidence had never been ingested, as far as provenance can tell:
 *
 * - the passages and structured records go, with their vectors;
 * - an entity, relationship or observation whose every piece of evidence is forgotten goes (the
 *   evidence relation is uncapped, unlike the citation list records carry); a deleted entity takes its
 *   relationships, the observations about it and its vector with it;
 * - one that keeps some evidence stays, rewritten: citations without the forgotten passages, a
 *   description that quotes forgotten text cleared, aliases no remaining evidence contains dropped;
 * - records no ingestion produced (written through `/model/*`, without evidence) are never touched.
 *
 * The same idea as LightRAG's document deletion (drop entities left without a source, rebuild the
 * others from what remains), with the provenance kept per record rather than re-extracted.
 */

/** What a cascade removes and rewrites, and what later steps need (redaction, cache drops). */
export interface Cascade {
  batch: WriteBatch
  counts: {
    passages: number
    structured: number
    entities: number
    relationships: number
    observations: number
    vectors: number
    rewritten: number
  }
  /** Ids of every record deleted or rewritten, forgotten passages included: what history is redacted by. */
  touched: string[]
  /** Texts of the forgotten passages, for the embedder to drop from its cache. */
  forgottenTexts: string[]
}

export interface ForgetInput {
  passageIds: string[]
  structuredIds?: string[]
  /** Timestamp of the rewritten records and the deletion entries. */
  now: string
  /** Seed of the deletion entries' ids (a task id): a re-run writes the same entries. */
  seed: string
}

/** Ids read per repository call. */
const CHUNK = 500

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Lower-cased text with runs of whitespace as one space, for "does this text quote that one". */
function squash(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim()
}

/**
 * Where `word` (lower-case) stands in `text` (lower-case) as whole words, or -1: "dessert" is not in
 * "desserts", nor "cool" in "school".
 */
function wordAt(text: string, word: string): number {
  const letter = /[\p{L}\p{N}]/u
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!
    const after = text[at + word.length] ?? ''
    if (!letter.test(before) && !letter.test(after)) return at
  }
  return -1
}

/** True when `text` (a description) is, or contains, or is contained in one of the forgotten texts. */
function quotes(text: string | null, forgotten: readonly string[]): boolean {
  if (text === null || text.trim() === '') return false
  const t = squash(text)
  return forgotten.some((f) => f.includes(t) || (f.length >= 20 && t.includes(f)))
}

/**
 * Splits records into those left without evidence (to delete) and those keeping some, with the
 * evidence they keep.
 */
async function remainingEvidence(
  store: BrainStore,
  kind: EvidenceKind,
  ids: string[],
  forgotten: ReadonlySet<string>,
): Promise<{ orphaned: Set<string>; kept: Map<string, string[]> }> {
  const orphaned = new Set<string>()
  const kept = new Map<string, string[]>()
  for (const part of chunks(ids)) {
    const evidence = await store.evidence.evidenceOf(kind, part)
    for (const id of part) {
      const rest = (evidence.get(id) ?? []).filter((e) => !forgotten.has(e))
      if (rest.length === 0) orphaned.add(id)
      else kept.set(id, rest)
    }
  }
  return { orphaned, kept }
}

/** Texts of the passages among `ids` (structured record ids and unknown ids are skipped). */
async function passageTexts(store: BrainStore, ids: readonly string[]): Promise<string[]> {
  const out: string[] = []
  for (const part of chunks(ids)) for (const p of await store.passages.get(part)) out.push(p.text)
  return out
}

/**
 * The aliases of `entity` some remaining evidence passage still contains. Only aliases the forgotten
 * texts contain are in doubt; the others came from evidence that stays. Reads remaining passages until
 * every doubtful alias is confirmed or none is left.
 */
async function confirmedAliases(
  store: BrainStore,
  entity: Entity,
  remaining: readonly string[],
  forgottenSquashed: readonly string[],
): Promise<string[]> {
  const doubtful = entity.aliases.filter((a) =>
    forgottenSquashed.some((f) => f.includes(squash(a))),
  )
  if (doubtful.length === 0) return entity.aliases
  const unconfirmed = new Set(doubtful.map(normalizeEntityName))
  for (const part of chunks(remaining, 100)) {
    if (unconfirmed.size === 0) break
    for (const text of await passageTexts(store, part)) {
      const norm = normalizeEntityName(text)
      for (const alias of [...unconfirmed]) if (wordAt(norm, alias) >= 0) unconfirmed.delete(alias)
    }
  }
  return entity.aliases.filter((a) => !unconfirmed.has(normalizeEntityName(a)))
}

/**
 * The entity's name as the earliest remaining evidence writes it. A name is kept as its first mention
 * spelled it ("Long time" at the start of a sentence); when that mention is forgotten, the name
 * becomes what the first remaining mention spells ("long time"), as if the forgotten one had never
 * been read. Only names some forgotten text contains are in doubt; at most 200 passages are read.
 */
async function remainingSpelling(
  store: BrainStore,
  entity: Entity,
  remaining: readonly string[],
  forgottenSquashed: readonly string[],
): Promise<string> {
  const lower = squash(entity.name)
  if (lower === '' || !forgottenSquashed.some((f) => f.includes(lower))) return entity.name
  const passages = (await store.passages.get(remaining.slice(0, 200))).sort(
    (a, b) =>
      a.insertedAt.localeCompare(b.insertedAt) ||
      a.position - b.position ||
      a.id.localeCompare(b.id),
  )
  for (const p of passages) {
    const at = wordAt(p.text.toLowerCase(), entity.name.toLowerCase())
    if (at >= 0) return p.text.slice(at, at + entity.name.length)
  }
  return entity.name
}

/** Citations without the forgotten ids, refilled from the remaining evidence when the list was capped. */
function citations(
  current: readonly string[],
  remaining: readonly string[],
  forgotten: ReadonlySet<string>,
) {
  const kept = current.filter((id) => !forgotten.has(id))
  if (kept.length >= MAX_SOURCE_IDS) return kept
  const have = new Set(kept)
  for (const id of remaining) {
    if (kept.length >= MAX_SOURCE_IDS) break
    if (!have.has(id)) {
      kept.push(id)
      have.add(id)
    }
  }
  return kept
}

/**
 * Builds the cascade of forgetting `input.passageIds` and `input.structuredIds`. Reads the brain as it
 * is: call it under the brain's write lock (inside a commit's builder).
 */
export async function buildForgetCascade(store: BrainStore, input: ForgetInput): Promise<Cascade> {
  const { now, seed } = input
  const passages: Passage[] = []
  for (const part of chunks(input.passageIds)) passages.push(...(await store.passages.get(part)))
  const structuredIds: string[] = []
  for (const id of input.structuredIds ?? [])
    if ((await store.structured.get(id)) !== null) structuredIds.push(id)
  const forgotten = new Set<string>([...passages.map((p) => p.id), ...structuredIds])
  const forgottenTexts = passages.map((p) => p.text)
  const forgottenSquashed = forgottenTexts.map(squash)

  const links: EvidenceLink[] = []
  for (const part of chunks([...forgotten])) links.push(...(await store.evidence.supportedBy(part)))
  const byKind = (kind: EvidenceKind) => [
    ...new Set(links.filter((l) => l.kind === kind).map((l) => l.recordId)),
  ]

  const entities = await remainingEvidence(store, 'entity', byKind('entity'), forgotten)
  const relationships = await remainingEvidence(
    store,
    'relationship',
    byKind('relationship'),
    forgotten,
  )
  const observations = await remainingEvidence(
    store,
    'observation',
    byKind('observation'),
    forgotten,
  )

  const deleteEntities = new Set(entities.orphaned)
  const deleteRelationships = new Set(relationships.orphaned)
  const deleteObservations = new Set(observations.orphaned)
  // A deleted entity takes its edges and the observations about it, whatever their evidence.
  for (const uuid of deleteEntities) {
    for (const r of await store.relationships.of(uuid)) deleteRelationships.add(r.uuid)
    for (let skip = 0; ; skip += 1000) {
      const page = await store.observations.list({ resourceId: uuid, limit: 1000, skip })
      for (const o of page.items) deleteObservations.add(o.id)
      if (page.items.length < 1000) break
    }
  }
  // Observations about a forgotten passage go with it.
  for (const p of passages) {
    const page = await store.observations.list({ resourceId: p.id, limit: 1000, skip: 0 })
    for (const o of page.items) deleteObservations.add(o.id)
  }

  const rewrittenEntities: Entity[] = []
  for (const part of chunks([...entities.kept.keys()].filter((id) => !deleteEntities.has(id)))) {
    for (const e of await store.entities.get(part)) {
      const remaining = entities.kept.get(e.uuid)!
      rewrittenEntities.push({
        ...e,
        name: await remainingSpelling(store, e, remaining, forgottenSquashed),
        sourcePassageIds: citations(e.sourcePassageIds, remaining, forgotten),
        description: quotes(e.description, forgottenTexts) ? null : e.description,
        aliases: await confirmedAliases(store, e, remaining, forgottenSquashed),
        lastUpdated: now,
      })
    }
  }
  const rewrittenRelationships: Relationship[] = []
  for (const part of chunks(
    [...relationships.kept.keys()].filter((id) => !deleteRelationships.has(id)),
  )) {
    for (const r of await store.relationships.get(part)) {
      if (deleteEntities.has(r.subjectUuid) || deleteEntities.has(r.objectUuid)) continue
      rewrittenRelationships.push({
        ...r,
        sourcePassageIds: citations(r.sourcePassageIds, relationships.kept.get(r.uuid)!, forgotten),
        description: quotes(r.description, forgottenTexts) ? null : r.description,
        lastUpdated: now,
      })
    }
  }
  const rewrittenObservations: Observation[] = []
  for (const id of observations.kept.keys()) {
    if (deleteObservations.has(id)) continue
    const o = await store.observations.get(id)
    if (o === null) continue
    const ids = o.metadata.passage_ids
    rewrittenObservations.push({
      ...o,
      metadata: {
        ...o.metadata,
        ...(Array.isArray(ids)
          ? { passage_ids: ids.filter((x) => !forgotten.has(String(x))) }
          : {}),
      },
    })
  }

  const deleteVectors = [
    ...passages.map((p) => ({ space: 'passages', id: p.id })),
    ...[...deleteEntities].map((uuid) => ({ space: 'entities', id: uuid })),
  ]
  // Deletion entries hold ids only: the changelog records that a deletion happened, never the content.
  const changelog = [
    ...[...deleteEntities].map((uuid) =>
      changelogEntry('node_deleted', { node: { uuid } }, `${seed}:deleted:${uuid}`),
    ),
    ...[...deleteRelationships].map((uuid) =>
      changelogEntry('relationship_deleted', { relationship: { uuid } }, `${seed}:deleted:${uuid}`),
    ),
    ...[...deleteObservations].map((id) =>
      changelogEntry('observation_deleted', { observation: { id } }, `${seed}:deleted:${id}`),
    ),
  ]
  const batch: WriteBatch = {
    entities: rewrittenEntities,
    relationships: rewrittenRelationships,
    observations: rewrittenObservations,
    changelog,
    deletePassages: passages.map((p) => p.id),
    deleteStructured: structuredIds,
    deleteEntities: [...deleteEntities],
    deleteRelationships: [...deleteRelationships],
    deleteObservations: [...deleteObservations],
    deleteVectors,
  }
  return {
    batch,
    counts: {
      passages: passages.length,
      structured: structuredIds.length,
      entities: deleteEntities.size,
      relationships: deleteRelationships.size,
      observations: deleteObservations.size,
      vectors: deleteVectors.length,
      rewritten: rewrittenEntities.length + rewrittenRelationships.length,
    },
    touched: [
      ...forgotten,
      ...deleteEntities,
      ...deleteRelationships,
      ...deleteObservations,
      ...rewrittenEntities.map((e) => e.uuid),
      ...rewrittenRelationships.map((r) => r.uuid),
    ],
    forgottenTexts,
  }
}
