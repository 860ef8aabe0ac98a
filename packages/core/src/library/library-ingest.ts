import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { z } from 'zod'
import { EngramError } from '../errors.js'
import {
  buildFilePayload,
  buildStructuredPayload,
  buildTextPayload,
  TASK_ID_PATTERN,
  type PayloadFields,
} from '../ingest/build-ingest-payloads.js'
import { INGEST_FILE, INGEST_STRUCTURED, INGEST_TEXT } from '../ingest/ingest-payloads.js'
import { parseInput } from '../invalid-input.js'
import { resolveExpiry, withExpiry, type ExpiryFields } from '../sources/source-expiry.js'
import type { LibraryContext } from './library-context.js'
import { dateTime, jsonMap, list, options } from './library-schemas.js'
import { taskHandle, type TaskHandle } from './task-handle.js'

/** Where the library's fields sit, for the shared payload builders' errors. */
const FIELDS: PayloadFields = {
  content: ['text'],
  text: 'text',
  json: 'json',
  sourceTimestamp: ['options', 'sourceTimestamp'],
  sourceId: ['options', 'sourceId'],
  items: ['items'],
}

const MAX_TEXT = 10_000_000
const taskId = z
  .string()
  .regex(TASK_ID_PATTERN, 'must be 1..128 characters of letters, digits, _ . : -')
  .optional()
/**
 * The source the content belongs to (docs/forgetting.md): ingesting again under the same id
 * replaces its content; `forget(sourceId)` removes it. Default: the task id. The payload builders
 * check it.
 */
const sourceId = z.string().optional()
/**
 * When the source expires (docs/time.md, Expiry): a date-time with a time zone (or a Date), or `ttl`
 * seconds from now; not both. Without either, the brain's `default_ttl` applies.
 */
const expiry = {
  expiresAt: z.union([z.string().max(64), z.date()]).optional(),
  ttl: z.number().optional(),
}
const EXPIRY_FIELDS: ExpiryFields = { expiresAt: ['options', 'expiresAt'], ttl: ['options', 'ttl'] }

/**
 * The expiry the options ask for (VALIDATION_ERROR naming the option otherwise), checked before the
 * content is: the cheap check first, as REST does.
 */
function expiryOf(o: { expiresAt?: string | Date; ttl?: number }): string | undefined {
  const at = o.expiresAt instanceof Date ? o.expiresAt.toISOString() : o.expiresAt
  return resolveExpiry({ expiresAt: at ?? null, ttl: o.ttl ?? null }, EXPIRY_FIELDS)
}

/** `ingest.text` and `ingest.json` options: REST's `POST /ingest/` body in camelCase. */
const textOptions = options({
  /** Stored as passage metadata; keys lower-cased with spaces as `_`. */
  metaKeys: jsonMap().optional(),
  /** Entities or topics observations should be about first. */
  observateFor: list(100, 500).optional(),
  /** Anchor of relative dates in the text; default now. */
  sourceTimestamp: dateTime.optional(),
  /** Store passages only: no extraction. */
  skipEnrichment: z.boolean().optional(),
  /** Client-chosen id: the same id again returns the same task. */
  taskId,
  sourceId,
  ...expiry,
})
export type TextIngestOptions = z.input<typeof textOptions>

const fileOptions = options({
  /** The file's name; default the path's base name. Its extension decides the type. */
  filename: z.string().min(1).max(1024).optional(),
  /** Decides the type when the name does not (e.g. `text/markdown`). */
  mimeType: z.string().max(200).optional(),
  metaKeys: jsonMap().optional(),
  sourceTimestamp: dateTime.optional(),
  taskId,
  sourceId,
  ...expiry,
})
export type FileIngestOptions = z.input<typeof fileOptions>

const node = z.strictObject({
  name: z.string().min(1).max(512),
  type: z.string().min(1).max(128),
  uuid: z.string().max(200).optional(),
  labels: list(50, 128).optional(),
  description: z.string().max(20_000).optional(),
  properties: jsonMap().optional(),
  happenedAt: z.string().max(64).optional(),
})
const predicate = z.strictObject({
  name: z.string().min(1).max(256),
  description: z.string().max(20_000).optional(),
  properties: jsonMap().optional(),
  amount: z.number().finite().optional(),
})
const structuredItems = z
  .array(
    z.strictObject({
      subject: node.optional(),
      subjEvent: predicate.optional(),
      event: node.optional(),
      eventObj: predicate.optional(),
      object: node,
    }),
  )
  .min(1)
  .max(10_000)
/** One structured item: `object` plus an accepted combination of the other parts (docs/library.md). */
export type StructuredItemInput = z.input<typeof structuredItems>[number]

const structuredOptions = options({
  /** Stands in for a missing `subject`: `{ uuid }` of a stored entity or `{ name, type }`. */
  anchor: z
    .union([
      z.strictObject({ uuid: z.string().min(1).max(200) }),
      z.strictObject({ name: z.string().min(1).max(512), type: z.string().min(1).max(128) }),
    ])
    .optional(),
  /** Text stored as passages beside the items. */
  text: z.string().max(MAX_TEXT).optional(),
  /** Default: `hybrid` with a text, else `deterministic`. */
  mode: z.enum(['deterministic', 'hybrid', 'enrich']).optional(),
  sourceTimestamp: dateTime.optional(),
  taskId,
  sourceId,
  ...expiry,
})
export type StructuredIngestOptions = z.input<typeof structuredOptions>

/** Ingestion: each call stores a task durably and returns its handle; `await task.done()` to wait. */
export interface EngramIngest {
  /** Text (at most 10,000,000 characters): chunked, extracted, embedded. */
  text(text: string, options?: TextIngestOptions): Promise<TaskHandle>
  /** A JSON object, flattened to `path: value` lines and ingested as text. */
  json(value: Record<string, unknown>, options?: TextIngestOptions): Promise<TaskHandle>
  /**
   * A file by path or its bytes: txt, md, json, jsonl, csv, html, pdf (others UNSUPPORTED_MEDIA_TYPE),
   * at most `maxFileBytes` (PAYLOAD_TOO_LARGE). Checked before the task exists, as the REST upload.
   */
  file(file: string | Uint8Array, options?: FileIngestOptions): Promise<TaskHandle>
  /** Structured records (entities, events, relationships) written as given, no extractor by default. */
  structured(items: StructuredItemInput[], options?: StructuredIngestOptions): Promise<TaskHandle>
}

const text = z.string().min(1).max(MAX_TEXT)
const fileSource = z.union([z.string().min(1), z.instanceof(Uint8Array)], {
  error: 'must be a file path or the file bytes (a Uint8Array or Buffer)',
})

/** The bytes of a file path, refused over `max` before they are read. */
async function readLimited(path: string, max: number): Promise<Uint8Array> {
  let size: number
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new Error('not a regular file')
    size = info.size
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new EngramError('RESOURCE_NOT_FOUND', `No file at ${path}.`)
    throw new EngramError('VALIDATION_ERROR', `Cannot read ${path}: ${(error as Error).message}.`, {
      status: 422,
      detail: [{ loc: ['file'], msg: (error as Error).message, type: 'value_error' }],
      cause: error,
    })
  }
  if (size > max) throw tooLarge(size, max)
  return readFile(path)
}

const tooLarge = (size: number, max: number) =>
  new EngramError('PAYLOAD_TOO_LARGE', `The file has ${size} bytes; the limit is ${max}.`, {
    resolution: 'Split the file, or raise `maxFileBytes` in createEngram().',
  })

export function libraryIngest(ctx: LibraryContext, brain: string): EngramIngest {
  const submit = async (kind: string, payload: unknown, id: string | undefined) => {
    const { task } = await ctx.engine.tasks.submit({
      brainId: brain,
      kind,
      payload,
      ...(id === undefined ? {} : { taskId: id }),
    })
    return taskHandle(ctx, brain, task.id)
  }

  return {
    text: (value, raw) =>
      ctx.run('ingest.text', async () => {
        const content = parseInput('ingest.text', text, value, ['text'])
        const o = parseInput('ingest.text', textOptions, raw, ['options'])
        const expiresAt = expiryOf(o)
        const payload = buildTextPayload({ ...o, text: content }, FIELDS)
        return submit(INGEST_TEXT, withExpiry(payload, expiresAt), o.taskId)
      }),

    json: (value, raw) =>
      ctx.run('ingest.json', async () => {
        const json = parseInput('ingest.json', jsonMap(Infinity), value, ['json'])
        const o = parseInput('ingest.json', textOptions, raw, ['options'])
        const expiresAt = expiryOf(o)
        const payload = buildTextPayload({ ...o, json }, FIELDS)
        return submit(INGEST_TEXT, withExpiry(payload, expiresAt), o.taskId)
      }),

    file: (source, raw) =>
      ctx.run('ingest.file', async () => {
        const from = parseInput('ingest.file', fileSource, source, ['file'])
        const o = parseInput('ingest.file', fileOptions, raw, ['options'])
        const expiresAt = expiryOf(o)
        if (typeof from !== 'string' && from.byteLength > ctx.maxFileBytes)
          throw tooLarge(from.byteLength, ctx.maxFileBytes)
        const bytes = typeof from === 'string' ? await readLimited(from, ctx.maxFileBytes) : from
        const payload = await buildFilePayload(
          {
            filename: o.filename ?? (typeof from === 'string' ? basename(from) : 'upload'),
            mimeType: o.mimeType ?? null,
            bytes,
            metaKeys: o.metaKeys ?? null,
            sourceTimestamp: o.sourceTimestamp ?? null,
            sourceId: o.sourceId ?? null,
          },
          FIELDS,
        )
        return submit(INGEST_FILE, withExpiry(payload, expiresAt), o.taskId)
      }),

    structured: (items, raw) =>
      ctx.run('ingest.structured', async () => {
        const parsed = parseInput('ingest.structured', structuredItems, items, ['items'])
        const o = parseInput('ingest.structured', structuredOptions, raw, ['options'])
        const expiresAt = expiryOf(o)
        const payload = buildStructuredPayload(
          {
            items: parsed,
            anchor: o.anchor ?? null,
            text: o.text ?? null,
            mode: o.mode ?? null,
            sourceTimestamp: o.sourceTimestamp ?? null,
            sourceId: o.sourceId ?? null,
          },
          FIELDS,
        )
        return submit(INGEST_STRUCTURED, withExpiry(payload, expiresAt), o.taskId)
      }),
  }
}
