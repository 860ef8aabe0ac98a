import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  BRAIN_ID_PATTERN,
  buildFilePayload,
  buildStructuredPayload,
  buildTextPayload,
  checkTaskId,
  EngramError,
  INGEST_FILE,
  INGEST_STRUCTURED,
  INGEST_TEXT,
  ingestionSourceId,
  MAX_SOURCE_ID_LENGTH,
  MAX_TTL_SECONDS,
  resolveExpiry,
  withExpiry,
  STRUCTURED_ITEM_PARTS,
  STRUCTURED_ITEM_SHAPES,
  type StructuredItemPart,
  type Engram,
  type StructuredNode,
} from '@engram/core'
import { requestedBrain, selectBrain } from '../plugins/auth.js'
import { acceptedWire } from '../schemas/accepted-wire.js'
import { bodyBoolean } from '../schemas/common.js'
import { freeFormMap, mapProblem } from '../schemas/free-form-map.js'
import { nodeBody, predicateBody } from '../schemas/structured-item-parts.js'
import { defineRoute } from './define-route.js'
import { readMultipartForm } from './multipart-form.js'

function invalid(loc: (string | number)[], msg: string, status: 400 | 422 = 422): EngramError {
  return new EngramError('VALIDATION_ERROR', msg, {
    status,
    detail: [{ loc, msg, type: 'value_error' }],
  })
}

/** The client-chosen task id of `Task-Identifier`, validated. */
function taskIdentifier(request: FastifyRequest): string | undefined {
  const raw = request.headers['task-identifier']
  const value = Array.isArray(raw) ? raw[0] : raw
  if (value === undefined || value === '') return undefined
  return checkTaskId(value, ['header', 'task-identifier'])
}

/** The multipart `meta_keys` field: a JSON object within the free-form map limits. */
function multipartMetaKeys(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw invalid(['body', 'meta_keys'], 'must be a JSON object')
  }
  const problem =
    parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)
      ? { message: 'must be a JSON object', type: 'value_error' }
      : mapProblem(parsed)
  if (problem === null) return { ...(parsed as Record<string, unknown>) }
  throw new EngramError('VALIDATION_ERROR', `meta_keys ${problem.message}`, {
    status: 422,
    detail: [{ loc: ['body', 'meta_keys'], msg: problem.message, type: problem.type }],
  })
}

/** `source_id` of the ingestion routes (docs/forgetting.md): re-ingesting an id replaces its content. */
const sourceIdField = z
  .string()
  .min(1)
  .max(MAX_SOURCE_ID_LENGTH)
  .optional()
  .describe(
    `The source this content belongs to: your own id, 1..${MAX_SOURCE_ID_LENGTH} characters without control characters. Ingesting again under the same id replaces the source's content (unchanged chunks keep their passages; identical content is a no-op); DELETE /sources/{source_id} forgets it. Default: the task id.`,
  )

/** `expires_at` and `ttl` of the ingestion routes (docs/time.md, Expiry): at most one of the two. */
const expiresAtDescription =
  'When the source expires: an ISO 8601 date-time with a time zone (e.g. `2030-01-01T00:00:00Z`). A sweep then forgets it as `DELETE /sources/{source_id}` does (a past time: at the next sweep). Not with `ttl` (both: 400). Without either, the brain’s `expiry.default_ttl` applies, else the source never expires; re-ingesting a source sets its expiry anew.'
const ttlDescription = `Seconds until the source expires (1 to ${MAX_TTL_SECONDS}, 100 years), counted from now: as \`expires_at\` = now + ttl. Not with \`expires_at\`.`
const expiryFields = {
  expires_at: z
    .string()
    .max(64)
    .optional()
    .meta({ format: 'date-time' })
    .describe(expiresAtDescription),
  ttl: z.number().int().min(1).max(MAX_TTL_SECONDS).optional().describe(ttlDescription),
}

/** The multipart `ttl` field: a whole number of seconds, as text. */
function multipartTtl(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null
  const ttl = /^\d{1,10}$/.test(raw.trim()) ? Number(raw.trim()) : NaN
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_SECONDS)
    throw invalid(['body', 'ttl'], `must be a whole number of seconds from 1 to ${MAX_TTL_SECONDS}`)
  return ttl
}

/** The 202 answer: the task to poll and the source it writes. */
const accepted = (message: string, task: { id: string; payload: unknown }) => ({
  message,
  task_id: task.id,
  source_id: ingestionSourceId(task),
})

const toNode = (n: z.infer<typeof nodeBody>): StructuredNode => ({
  name: n.name,
  type: n.type,
  ...(n.uuid !== undefined ? { uuid: n.uuid } : {}),
  ...(n.labels !== undefined ? { labels: n.labels } : {}),
  ...(n.description !== undefined ? { description: n.description } : {}),
  ...(n.properties !== undefined ? { properties: n.properties } : {}),
  ...(n.happened_at !== undefined ? { happenedAt: n.happened_at } : {}),
})

const WIRE_PART: Record<StructuredItemPart, string> = {
  subject: 'subject',
  subjEvent: 'subj_event',
  event: 'event',
  eventObj: 'event_obj',
}

/**
 * A structured item: one object schema (so a malformed item gets a 422 naming what is missing), with
 * the accepted combinations of its optional parts (STRUCTURED_ITEM_SHAPES) as a JSON Schema `oneOf`
 * for the OpenAPI document: each variant requires its parts and forbids the others.
 */
const structuredItem = z
  .object({
    subject: nodeBody.optional(),
    subj_event: predicateBody.optional(),
    event: nodeBody.optional(),
    event_obj: predicateBody.optional(),
    object: nodeBody,
  })
  .meta({
    description:
      'One item: `object` plus one of the accepted combinations of `subject`, `subj_event`, `event` and `event_obj` (the `oneOf` variants). Other combinations: 422 naming the item.',
    oneOf: STRUCTURED_ITEM_SHAPES.map((shape) => {
      const absent = STRUCTURED_ITEM_PARTS.filter((p) => !shape.parts.includes(p))
      return {
        title: shape.name,
        description: shape.description,
        required: [...shape.parts.map((p) => WIRE_PART[p]), 'object'],
        ...(absent.length > 0
          ? { not: { anyOf: absent.map((p) => ({ required: [WIRE_PART[p]] })) } }
          : {}),
      }
    }),
  })

/** `/ingest/*` (CONTRACT.md section 3): the task and its payload are stored before the 202. */
export function ingestRoutes(
  app: FastifyInstance,
  engram: Engram,
  options: { maxFileBytes: number },
) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/ingest/',
      operationId: 'ingest_text',
      tag: 'ingest',
      summary: 'Ingest text or JSON',
      description:
        'Accepts exactly one of `text` or `data` (both: 400) and answers 202 with a task id and the source id (`source_id`, else the task id); the task and its payload are stored durably first. Header `Task-Identifier`: sending the same id again returns the same task. Poll /tasks/{task_id}.',
      auth: 'brain',
      unavailableWhen: ['queue'],
      body: z.object({
        text: z.string().min(1).max(10_000_000).optional(),
        data: z
          .union([
            z.object({
              data_type: z.literal('text'),
              text_data: z.string().min(1).max(10_000_000),
            }),
            z.object({
              data_type: z.literal('json').optional(),
              json_data: freeFormMap({ bytes: Infinity }),
            }),
          ])
          .optional(),
        meta_keys: freeFormMap().optional(),
        observate_for: z.array(z.string().max(500)).max(100).default([]),
        source_timestamp: z.string().max(64).nullable().optional(),
        skip_enrichment: bodyBoolean(false),
        source_id: sourceIdField,
        ...expiryFields,
        brain_id: z.string().max(200).optional(),
      }),
      success: { 202: acceptedWire },
      errors: [400],
    },
    async (request, reply) => {
      const b = request.body
      // `data` may carry text too: `text` beside it is two contents, whichever `data` holds.
      if (b.text !== undefined && b.data !== undefined)
        throw invalid(['body'], 'send exactly one of `text` or `data`, not both', 400)
      const expiresAt = resolveExpiry({ expiresAt: b.expires_at ?? null, ttl: b.ttl ?? null })
      const built = buildTextPayload({
        text: b.text ?? (b.data && 'text_data' in b.data ? b.data.text_data : null),
        json: b.data && 'json_data' in b.data ? b.data.json_data : null,
        metaKeys: b.meta_keys ?? null,
        observateFor: b.observate_for,
        sourceTimestamp: b.source_timestamp ?? null,
        skipEnrichment: b.skip_enrichment,
        sourceId: b.source_id ?? null,
      })
      const payload = withExpiry(built, expiresAt)
      const taskId = taskIdentifier(request)
      const { task } = await engram.tasks.submit({
        brainId: request.brainId,
        kind: INGEST_TEXT,
        payload,
        ...(taskId ? { taskId } : {}),
      })
      return reply.status(202).send(accepted('Ingestion accepted', task))
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/ingest/file',
      operationId: 'ingest_file',
      tag: 'ingest',
      summary: 'Ingest a file',
      description:
        'multipart/form-data with part `file` (txt, md, json, jsonl, csv, html, pdf; others 415; over MAX_FILE_BYTES 413), optional fields `brain_id`, `meta_keys` (a JSON object as a string), `source_id`, and `expires_at` or `ttl` (not both: 400). One task per file. Broken JSON, JSONL or CSV, or an encrypted or unreadable PDF: 422. PDFs are read through their text layer (no OCR).',
      auth: 'brain',
      unavailableWhen: ['queue'],
      multipartBody: z.object({
        file: z.string().meta({ format: 'binary' }).describe('The file to ingest.'),
        brain_id: z.string().optional().describe('Brain fallback when X-Brain-ID is not sent.'),
        meta_keys: z
          .string()
          .optional()
          .describe('A JSON object as a string, stored as passage metadata.'),
        source_id: sourceIdField,
        expires_at: expiryFields.expires_at,
        ttl: z
          .string()
          .optional()
          .describe(`${ttlDescription} A whole number as the field's text.`),
      }),
      success: { 202: acceptedWire },
      errors: [400],
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new EngramError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the file as multipart/form-data with a part named `file`.',
        )
      const { fields, file } = await readMultipartForm(request, {
        fileBytes: options.maxFileBytes,
        fields: 20,
        fieldBytes: 1024 * 1024,
      })
      if (file === null) throw invalid(['body', 'file'], 'the part `file` is required')
      const fromField = fields.brain_id?.trim()
      const requested = requestedBrain(request) ?? (fromField ? fromField : null)
      if (fromField && !BRAIN_ID_PATTERN.test(fromField))
        throw invalid(['body', 'brain_id'], `must match ${BRAIN_ID_PATTERN.source}`)
      const brainId = await selectBrain(engram, request.principal!, requested)
      const expiresAt = resolveExpiry({
        expiresAt: fields.expires_at || null,
        ttl: multipartTtl(fields.ttl),
      })
      const built = await buildFilePayload({
        filename: file.filename,
        mimeType: file.mimeType,
        bytes: file.bytes,
        metaKeys: multipartMetaKeys(fields.meta_keys),
        sourceId: fields.source_id ?? null,
      })
      const payload = withExpiry(built, expiresAt)
      const taskId = taskIdentifier(request)
      const { task } = await engram.tasks.submit({
        brainId,
        kind: INGEST_FILE,
        payload,
        ...(taskId ? { taskId } : {}),
      })
      return reply.status(202).send(accepted('File ingestion accepted', task))
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/ingest/structured',
      operationId: 'ingest_structured',
      tag: 'ingest',
      summary: 'Ingest structured triples',
      description:
        'Items `{subject?, subj_event?, event?, event_obj?, object}` in one of these shapes: only `object` (creates that node, or merges it into the stored entity it resolves to, filling what it lacks; no edge); `subject` + `subj_event` (subject -subj_event-> object); `subj_event` with an `anchor` (anchor -subj_event-> object); `subject` + `subj_event` + `event` + `event_obj` (subject -subj_event-> event -event_obj-> object, one flow key); `event` + `event_obj` (event -event_obj-> object, plus anchor -MADE-> event when an `anchor` is given); `subj_event` + `event` + `event_obj` with an `anchor` (the anchor as the subject). `anchor` ({uuid} or {name, type}) stands in for a missing `subject`; it is resolved like any structured node (an unknown uuid fails the task) and is never linked to a node-only item, which names no predicate. `mode` defaults to deterministic without `text` (no extractor runs) and hybrid with it. Any other combination: 422 naming the item.',
      auth: 'brain',
      unavailableWhen: ['queue'],
      body: z.object({
        data: z.array(structuredItem).min(1).max(10_000),
        anchor: z
          .union([
            z.object({ uuid: z.string().min(1).max(200) }),
            z.object({ name: z.string().min(1).max(512), type: z.string().min(1).max(128) }),
          ])
          .nullable()
          .optional()
          .describe(
            'Stands in for a missing `subject` in the shapes that say so: `{uuid}` of a stored entity, or `{name, type}` resolved like any structured node (created when missing). Never linked to a node-only item.',
          ),
        text: z.string().max(10_000_000).nullable().optional(),
        mode: z.enum(['deterministic', 'hybrid', 'enrich']).nullable().optional(),
        source_id: sourceIdField,
        ...expiryFields,
        brain_id: z.string().max(200).optional(),
      }),
      success: { 202: acceptedWire },
      errors: [400],
    },
    async (request, reply) => {
      const b = request.body
      const expiresAt = resolveExpiry({ expiresAt: b.expires_at ?? null, ttl: b.ttl ?? null })
      const built = buildStructuredPayload({
        items: b.data.map((item) => ({
          object: toNode(item.object),
          ...(item.subject ? { subject: toNode(item.subject) } : {}),
          ...(item.event ? { event: toNode(item.event) } : {}),
          ...(item.subj_event ? { subjEvent: item.subj_event } : {}),
          ...(item.event_obj ? { eventObj: item.event_obj } : {}),
        })),
        anchor: b.anchor ?? null,
        text: b.text ?? null,
        mode: b.mode ?? null,
        sourceId: b.source_id ?? null,
      })
      const payload = withExpiry(built, expiresAt)
      const taskId = taskIdentifier(request)
      const { task } = await engram.tasks.submit({
        brainId: request.brainId,
        kind: INGEST_STRUCTURED,
        payload,
        ...(taskId ? { taskId } : {}),
      })
      return reply.status(202).send(accepted('Structured ingestion accepted', task))
    },
  )
}
