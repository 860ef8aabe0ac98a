import { z } from 'zod'
import { isoDate, jsonObject } from './common.js'

/** Longest caller-chosen `source_id` (docs/forgetting.md). */
export const MAX_SOURCE_ID_LENGTH = 256

/** What one source's ingestions produced, as of its latest one. */
export const sourceCountsSchema = z.object({
  passages: z.number().int(),
  entities: z.number().int(),
  events: z.number().int(),
  relationships: z.number().int(),
  observations: z.number().int(),
  structured: z.number().int(),
})
export type SourceCounts = z.infer<typeof sourceCountsSchema>

/**
 * A source: the unit a caller ingests, re-ingests and forgets (docs/forgetting.md). Every ingestion
 * belongs to one; its passages carry its id. `status` is `active`, or `forgotten` for the tombstone a
 * forget leaves (id and `forgottenAt` only: title, meta and hash are erased) so that an ingestion sent
 * before the forget cannot bring the content back when it runs after it.
 */
export const sourceSchema = z.object({
  id: z.string(),
  status: z.enum(['active', 'forgotten']),
  /** The caller's `title` meta key, else null. */
  title: z.string().nullable(),
  /** The uploaded file's name (`/ingest/file`), else null. */
  filename: z.string().nullable(),
  /** The latest ingestion's `meta_keys`. */
  meta: jsonObject,
  /** SHA-256 hex of the latest ingestion's content (text, file bytes or structured payload); null when forgotten. */
  contentHash: z.string().nullable(),
  /** `ingest_text`, `ingest_file` or `ingest_structured`: the kind of its latest ingestion. */
  kind: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  /** Ingestion tasks that wrote it, oldest first (the forget task of a tombstone included). */
  taskIds: z.array(z.string()),
  counts: sourceCountsSchema,
  /** When the forget was requested (`forgotten` only): ingestions created before it are superseded. */
  forgottenAt: isoDate.nullable(),
  /**
   * When the source expires (docs/time.md, Expiry): the latest ingestion's `expires_at`, `ttl` or the
   * brain's default. A sweep forgets it once past. Null or absent: it never expires.
   */
  expiresAt: isoDate.nullable().optional(),
})
export type Source = z.infer<typeof sourceSchema>

export const EMPTY_SOURCE_COUNTS: SourceCounts = {
  passages: 0,
  entities: 0,
  events: 0,
  relationships: 0,
  observations: 0,
  structured: 0,
}

/**
 * Which records a piece of evidence (a passage id, or a structured record id) supports: the
 * uncapped provenance forgetting runs on. `Entity.sourcePassageIds` is a capped citation list for
 * display; this is the full relation (DESIGN.md section 1b).
 */
export type EvidenceKind = 'entity' | 'relationship' | 'observation'
export interface EvidenceLink {
  kind: EvidenceKind
  recordId: string
  /** A passage id, or a structured record id for records structured ingestion wrote. */
  evidenceId: string
}

/**
 * The evidence id of what a person wrote through `/model/*`: a record with this link survives the
 * forgetting of every source that also supports it (docs/forgetting.md).
 */
export const MODEL_EVIDENCE = 'model'

/** The evidence link that marks a record as written or edited through `/model/*`. */
export function modelEvidence(kind: EvidenceKind, recordId: string): EvidenceLink {
  return { kind, recordId, evidenceId: MODEL_EVIDENCE }
}
