import { EngramError } from '../errors.js'
import type { JsonObject } from '../model/common.js'
import { MAX_SOURCE_ID_LENGTH } from '../model/source.js'
import { checkFile } from './parse/parse-file.js'
import {
  normalizeMetaKeys,
  structuredItemProblems,
  type FileIngestPayload,
  type StructuredIngestPayload,
  type StructuredItem,
  type TextIngestPayload,
} from './ingest-payloads.js'

type Loc = (string | number)[]

/**
 * The durable payloads of the three ingestion tasks, built from what a caller sent: once, for the REST
 * routes and the library alike (CONTRACT.md section 3). Field shapes and bounds are the caller's
 * schema's business; these apply the rules between fields (exactly one content, structured item
 * shapes), the normalisations (meta keys, source timestamp) and the defaults (structured `mode`).
 */

/**
 * A caller's `source_id` (docs/forgetting.md): 1..256 characters, none of them a control character;
 * VALIDATION_ERROR (422) naming `loc` otherwise. Null or absent: the task's id is the source id.
 */
export function checkSourceId(value: string | null | undefined, loc: Loc): string | null {
  if (value === undefined || value === null) return null
  if (value.length === 0 || value.length > MAX_SOURCE_ID_LENGTH || hasControlCharacter(value))
    throw invalid(
      loc,
      `must be 1..${MAX_SOURCE_ID_LENGTH} characters, none of them a control character`,
    )
  return value
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/** The source id of an ingestion task: its payload's `sourceId`, else the task's own id. */
export function ingestionSourceId(task: { id: string; payload: unknown }): string {
  const payload = task.payload as { sourceId?: unknown } | null
  return typeof payload?.sourceId === 'string' ? payload.sourceId : task.id
}

/** A client-chosen task id (`Task-Identifier`, the library's `taskId`). */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/

/** Where the caller's fields sit, for error `loc`s and messages. Default: the REST body's names. */
export interface PayloadFields {
  /** Where a missing or doubled content is reported. */
  content: Loc
  /** The caller's names of the two contents of a text ingestion. */
  text: string
  json: string
  sourceTimestamp: Loc
  /** Default `['body', 'source_id']`. */
  sourceId?: Loc
  /** The structured items list. */
  items: Loc
}

export const REST_PAYLOAD_FIELDS: PayloadFields = {
  content: ['body'],
  text: 'text',
  json: 'data',
  sourceTimestamp: ['body', 'source_timestamp'],
  sourceId: ['body', 'source_id'],
  items: ['body', 'data'],
}

function invalid(loc: Loc, msg: string, status: 400 | 422 = 422): EngramError {
  return new EngramError('VALIDATION_ERROR', msg, {
    status,
    detail: [{ loc, msg, type: 'value_error' }],
  })
}

/** A task id checked against {@link TASK_ID_PATTERN}; VALIDATION_ERROR (422) otherwise. */
export function checkTaskId(value: string, loc: Loc): string {
  if (!TASK_ID_PATTERN.test(value))
    throw invalid(loc, 'must be 1..128 characters of letters, digits, _ . : -')
  return value
}

/**
 * The anchor of relative dates in the text ("yesterday"), as ISO 8601 UTC: now when absent or empty,
 * else the given date-time, which must parse (VALIDATION_ERROR naming `loc` otherwise).
 */
export function resolveSourceTimestamp(raw: string | null | undefined, loc: Loc): string {
  if (raw === undefined || raw === null || raw === '') return new Date().toISOString()
  const time = Date.parse(raw)
  if (Number.isNaN(time)) throw invalid(loc, 'must be an ISO 8601 date-time')
  return new Date(time).toISOString()
}

export interface TextIngestInput {
  /** Plain text; exactly one of `text` and `json`. */
  text?: string | null
  /** A JSON object, flattened to text by the task. */
  json?: JsonObject | null
  metaKeys?: Record<string, unknown> | null
  observateFor?: string[]
  sourceTimestamp?: string | null
  skipEnrichment?: boolean
  /** The source this ingestion belongs to (re-ingesting an id replaces its content); default: the task's id. */
  sourceId?: string | null
}

/** The payload of a text or JSON ingestion (`POST /ingest/`): both contents 400, neither 422. */
export function buildTextPayload(
  input: TextIngestInput,
  fields: PayloadFields = REST_PAYLOAD_FIELDS,
): TextIngestPayload {
  const text = input.text ?? null
  const json = input.json ?? null
  const names = `\`${fields.text}\` or \`${fields.json}\``
  if (text !== null && json !== null)
    throw invalid(fields.content, `send exactly one of ${names}, not both`, 400)
  if (text === null && json === null) throw invalid(fields.content, `one of ${names} is required`)
  return {
    sourceId: checkSourceId(input.sourceId, fields.sourceId ?? ['body', 'source_id']),
    text,
    json,
    metaKeys: normalizeMetaKeys(input.metaKeys),
    observateFor: input.observateFor ?? [],
    sourceTimestamp: resolveSourceTimestamp(input.sourceTimestamp, fields.sourceTimestamp),
    skipEnrichment: input.skipEnrichment ?? false,
  }
}

export interface FileIngestInput {
  /** The file's name; its extension decides the type before `mimeType` does. */
  filename: string
  mimeType: string | null
  bytes: Uint8Array
  metaKeys?: Record<string, unknown> | null
  sourceTimestamp?: string | null
  /** As for text ingestion. */
  sourceId?: string | null
}

/**
 * The payload of a file ingestion (`POST /ingest/file`), after checking the file as its task will read
 * it (`checkFile`): an unsupported type is UNSUPPORTED_MEDIA_TYPE (415), broken JSON, JSONL or CSV or
 * an unreadable PDF a VALIDATION_ERROR (422), before any task exists. The size limit is the caller's
 * (it must hold before the bytes are read).
 */
export async function buildFilePayload(
  input: FileIngestInput,
  fields: PayloadFields = REST_PAYLOAD_FIELDS,
): Promise<FileIngestPayload> {
  const sourceId = checkSourceId(input.sourceId, fields.sourceId ?? ['body', 'source_id'])
  await checkFile({ filename: input.filename, mimeType: input.mimeType, bytes: input.bytes })
  return {
    sourceId,
    filename: input.filename,
    mimeType: input.mimeType,
    contentBase64: Buffer.from(
      input.bytes.buffer,
      input.bytes.byteOffset,
      input.bytes.length,
    ).toString('base64'),
    metaKeys: normalizeMetaKeys(input.metaKeys),
    sourceTimestamp: resolveSourceTimestamp(input.sourceTimestamp, fields.sourceTimestamp),
  }
}

export interface StructuredIngestInput {
  items: StructuredItem[]
  anchor?: StructuredIngestPayload['anchor']
  /** Text stored as passages beside the items (and extracted from in `hybrid` and `enrich`). */
  text?: string | null
  /** Default: `hybrid` with a non-blank text, else `deterministic`. */
  mode?: StructuredIngestPayload['mode'] | null
  sourceTimestamp?: string | null
  /** As for text ingestion. */
  sourceId?: string | null
}

/**
 * The payload of a structured ingestion (`POST /ingest/structured`). Every item must have one of the
 * accepted shapes (`STRUCTURED_ITEM_SHAPES`); the VALIDATION_ERROR (422) lists each bad item at
 * `[...fields.items, index]`.
 */
export function buildStructuredPayload(
  input: StructuredIngestInput,
  fields: PayloadFields = REST_PAYLOAD_FIELDS,
): StructuredIngestPayload {
  const anchor = input.anchor ?? null
  const detail = input.items.flatMap((item, i) =>
    structuredItemProblems(item, anchor !== null).map((msg) => ({
      loc: [...fields.items, i],
      msg,
      type: 'value_error',
    })),
  )
  if (detail.length > 0)
    throw new EngramError(
      'VALIDATION_ERROR',
      `Malformed structured item ${detail[0]!.loc.at(-1)}: ${detail[0]!.msg}.`,
      { status: 422, detail },
    )
  const text = input.text ?? null
  return {
    sourceId: checkSourceId(input.sourceId, fields.sourceId ?? ['body', 'source_id']),
    items: input.items,
    anchor,
    text,
    mode: input.mode ?? (text !== null && text.trim() !== '' ? 'hybrid' : 'deterministic'),
    sourceTimestamp: resolveSourceTimestamp(input.sourceTimestamp, fields.sourceTimestamp),
  }
}
