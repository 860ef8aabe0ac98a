import { z } from 'zod'
import { isoDate, jsonObject } from './common.js'

/**
 * A chunk of ingested text (spec section 2.4). `source` is the task that wrote it, `sourceId` the
 * source it belongs to (docs/forgetting.md; null only on passages written before sources existed,
 * whose source is their task), `position` its chunk index in that source's latest text, and
 * `start`/`end` its character offsets in the parsed source text.
 */
export const passageSchema = z.object({
  id: z.string(),
  text: z.string(),
  metadata: jsonObject,
  insertedAt: isoDate,
  brainVersion: z.string(),
  source: z.string().nullable(),
  sourceId: z.string().nullable().optional(),
  position: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
})
export type Passage = z.infer<typeof passageSchema>

/** Metadata keys that name a passage's conversation session, first found wins. */
const SESSION_KEYS = ['session_id', 'session'] as const

/** The conversation session a passage belongs to (`session_id`, else `session` metadata), or null. */
export function sessionOf(metadata: Passage['metadata']): string | null {
  for (const key of SESSION_KEYS) {
    const value = metadata[key]
    if (typeof value === 'string' || typeof value === 'number') return String(value)
  }
  return null
}

/** The source a passage belongs to: its `sourceId`, else (written before sources existed) its task. */
export function sourceIdOf(passage: Pick<Passage, 'source' | 'sourceId'>): string | null {
  return passage.sourceId ?? passage.source
}
