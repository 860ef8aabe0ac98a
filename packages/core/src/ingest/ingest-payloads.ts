import { z } from 'zod'
import { jsonObject } from '../model/common.js'

/** Task kinds written by the ingest routes. */
export const INGEST_TEXT = 'ingest_text'
export const INGEST_FILE = 'ingest_file'
export const INGEST_STRUCTURED = 'ingest_structured'

/** Durable payload of `POST /ingest/` (CONTRACT.md section 3), after the server normalised it. */
/**
 * The source an ingestion belongs to (docs/forgetting.md): the caller's id, or null for "the task's
 * own id". Absent in payloads stored before sources existed, which read as null.
 */
const sourceIdField = z.string().nullable().default(null)

export const textIngestPayload = z.object({
  sourceId: sourceIdField,
  text: z.string().nullable(),
  json: jsonObject.nullable(),
  metaKeys: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  observateFor: z.array(z.string()),
  sourceTimestamp: z.string(),
  skipEnrichment: z.boolean(),
})
/** As stored; `sourceId` may be absent (payloads written before sources existed). */
export type TextIngestPayload = z.input<typeof textIngestPayload>

/** Durable payload of `POST /ingest/file`: the file bytes travel base64-encoded in the task record. */
export const fileIngestPayload = z.object({
  sourceId: sourceIdField,
  filename: z.string(),
  mimeType: z.string().nullable(),
  contentBase64: z.string(),
  metaKeys: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  sourceTimestamp: z.string(),
})
/** As stored; `sourceId` may be absent (payloads written before sources existed). */
export type FileIngestPayload = z.input<typeof fileIngestPayload>

export const structuredNode = z.object({
  name: z.string().min(1).max(512),
  type: z.string().min(1).max(128),
  uuid: z.string().optional(),
  labels: z.array(z.string()).optional(),
  description: z.string().optional(),
  properties: jsonObject.optional(),
  happenedAt: z.string().optional(),
})
export type StructuredNode = z.infer<typeof structuredNode>

export const structuredPredicate = z.object({
  name: z.string().min(1).max(256),
  description: z.string().optional(),
  properties: jsonObject.optional(),
  amount: z.number().optional(),
})
export type StructuredPredicate = z.infer<typeof structuredPredicate>

export const structuredItem = z.object({
  subject: structuredNode.optional(),
  subjEvent: structuredPredicate.optional(),
  event: structuredNode.optional(),
  eventObj: structuredPredicate.optional(),
  object: structuredNode,
})
export type StructuredItem = z.infer<typeof structuredItem>

export const structuredIngestPayload = z.object({
  sourceId: sourceIdField,
  items: z.array(structuredItem),
  anchor: z
    .union([z.object({ uuid: z.string() }), z.object({ name: z.string(), type: z.string() })])
    .nullable(),
  text: z.string().nullable(),
  mode: z.enum(['deterministic', 'hybrid', 'enrich']),
  sourceTimestamp: z.string(),
})
/** As stored; `sourceId` may be absent (payloads written before sources existed). */
export type StructuredIngestPayload = z.input<typeof structuredIngestPayload>

export {
  STRUCTURED_ITEM_PARTS,
  STRUCTURED_ITEM_SHAPES,
  structuredItemProblems,
  type StructuredItemPart,
  type StructuredItemShape,
} from './structured/structured-item-shapes.js'

/** Normalises `meta_keys`: keys lower-cased with spaces as `_`, nulls and nested values dropped. */
export function normalizeMetaKeys(raw: Record<string, unknown> | null | undefined) {
  const out: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (value === null || value === undefined) continue
    const k = key.trim().toLowerCase().replace(/\s+/g, '_')
    if (k.length === 0) continue
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[k] = value
    else out[k] = JSON.stringify(value)
  }
  return out
}
