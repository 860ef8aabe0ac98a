import { z } from 'zod'
import type { Source } from '@engram/core'
import { jsonObjectWire } from './common.js'
import { dateTimeWire } from './date-time-wire.js'

/**
 * A source on the wire (docs/forgetting.md, REST section): what the caller ingested under one
 * `source_id`. Only active sources are ever sent (a forgotten one is a 404), so nothing is null:
 * an unset title or file name is "" (docs/wire-format.md).
 */
export const sourceWire = z
  .object({
    source_id: z.string().describe('The caller’s `source_id`, else the id of its first task.'),
    title: z
      .string()
      .describe(
        'The `title` meta key of its latest ingestion, else the title a file gives itself (a Markdown heading, an HTML or PDF title); "" when unset.',
      ),
    filename: z.string().describe('The uploaded file’s name (`/ingest/file`); "" otherwise.'),
    meta: jsonObjectWire.describe('The `meta_keys` of its latest ingestion.'),
    content_hash: z
      .string()
      .describe('SHA-256 hex of its latest content: re-sending identical content is a no-op.'),
    kind: z
      .string()
      .describe('`ingest_text`, `ingest_file` or `ingest_structured`: its latest ingestion.'),
    created_at: dateTimeWire,
    updated_at: dateTimeWire,
    task_ids: z.array(z.string()).describe('The ingestion tasks that wrote it, oldest first.'),
    counts: z
      .object({
        passages: z.number().int(),
        entities: z.number().int(),
        events: z.number().int(),
        relationships: z.number().int(),
        observations: z.number().int(),
        structured: z.number().int(),
      })
      .describe('What its latest ingestion produced.'),
    expires_at: dateTimeWire
      .optional()
      .describe(
        'When a sweep forgets it (docs/time.md, Expiry): set by its latest ingestion’s `expires_at` or `ttl`, or the brain’s default. Left out when it never expires.',
      ),
  })
  .meta({ id: 'Source' })

export const toSource = (s: Source): z.infer<typeof sourceWire> => ({
  source_id: s.id,
  title: s.title ?? '',
  filename: s.filename ?? '',
  meta: s.meta,
  content_hash: s.contentHash ?? '',
  kind: s.kind ?? '',
  created_at: s.createdAt,
  updated_at: s.updatedAt,
  task_ids: s.taskIds,
  counts: { ...s.counts },
  ...(s.expiresAt == null ? {} : { expires_at: s.expiresAt }),
})

/** What a `DELETE /model/*` removed, the named record and what went with it. */
export const deletionWire = z
  .object({
    deleted: z.object({
      entities: z.number().int(),
      relationships: z.number().int(),
      observations: z.number().int(),
    }),
  })
  .meta({ id: 'Deletion' })

/** Typed structurally: core's `GraphDeletion` (sources/sources-api.ts). */
export const toDeletion = (d: {
  entities: number
  relationships: number
  observations: number
}): z.infer<typeof deletionWire> => ({
  deleted: { entities: d.entities, relationships: d.relationships, observations: d.observations },
})
