import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { EngramError, MAX_SOURCE_ID_LENGTH, type Engram, type JsonObject } from '@engram/core'
import { acceptedWire } from '../schemas/accepted-wire.js'
import { brainIdQuery, pagination } from '../schemas/common.js'
import { sourceWire, toSource } from '../schemas/source-wire.js'
import { passageWire, toPassage } from '../schemas/wire-records.js'
import { defineRoute } from './define-route.js'

/** Most keys a `meta` filter may hold: each is one equality the list checks on every source. */
const MAX_META_KEYS = 50

const sourceParams = z.object({
  source_id: z
    .string()
    .min(1)
    .max(MAX_SOURCE_ID_LENGTH)
    .describe('The source id, percent-encoded (`/` as %2F).'),
})

/**
 * The `meta` query parameter: a JSON object of scalars, each an equality on the source's `meta`.
 * A JSON object rather than repeated `meta.<key>=` parameters keeps numbers and booleans typed (a
 * query string has only strings) and keeps the parameter one OpenAPI schema.
 */
function metaFilter(raw: string | undefined): JsonObject | undefined {
  if (raw === undefined || raw === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw badMeta('must be a JSON object, e.g. {"project":"apollo"}')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw badMeta('must be a JSON object, e.g. {"project":"apollo"}')
  const entries = Object.entries(parsed)
  if (entries.length > MAX_META_KEYS) throw badMeta(`at most ${MAX_META_KEYS} keys`)
  for (const [key, value] of entries)
    if (!['string', 'number', 'boolean'].includes(typeof value))
      throw badMeta(`the value of "${key.slice(0, 100)}" must be a string, number or boolean`)
  return parsed as JsonObject
}

const badMeta = (msg: string) =>
  new EngramError('VALIDATION_ERROR', `meta ${msg}`, {
    status: 422,
    detail: [{ loc: ['query', 'meta'], msg, type: 'value_error' }],
  })

/** `/sources` (docs/forgetting.md): list, read and forget what was ingested, by source. */
export function sourceRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/sources',
      operationId: 'sources_list',
      tag: 'sources',
      summary: 'List sources',
      description:
        'The brain’s sources (what was ingested under one `source_id`), most recently updated first. `query_text`: a case-insensitive substring of the id, title or file name. `meta`: a JSON object, percent-encoded, whose every key must equal the source’s meta value (e.g. `meta=%7B%22project%22%3A%22apollo%22%7D` for `{"project":"apollo"}`; strings, numbers and booleans). Forgotten sources are not listed.',
      auth: 'brain',
      querystring: z.object({
        query_text: z.string().max(2000).optional(),
        meta: z
          .string()
          .max(10_000)
          .optional()
          .describe(`A JSON object of at most ${MAX_META_KEYS} scalar values, each an equality.`),
        ...pagination,
        ...brainIdQuery,
      }),
      success: {
        200: z.object({
          sources: z.array(sourceWire),
          total: z.number().int().describe('Matching sources before paging.'),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const q = request.query
      const meta = metaFilter(q.meta)
      const page = await engram.sources.list(request.brainId, {
        limit: q.limit,
        skip: q.skip,
        ...(q.query_text !== undefined && q.query_text !== '' ? { queryText: q.query_text } : {}),
        ...(meta !== undefined ? { meta } : {}),
      })
      return {
        sources: page.items.map(toSource),
        total: page.total,
        message: 'Sources retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/sources/:source_id',
      operationId: 'sources_get',
      tag: 'sources',
      summary: 'Get a source',
      description:
        'One source and a page of its passages in position order (`limit`, `skip`). Unknown or forgotten: 404.',
      auth: 'brain',
      params: sourceParams,
      querystring: z.object({ ...pagination, ...brainIdQuery }),
      success: {
        200: z.object({
          source: sourceWire,
          passages: z.array(passageWire).describe('This page of its passages, in text order.'),
          total: z.number().int().describe('All its passages, beyond this page.'),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const { source, passages } = await engram.sources.get(
        request.brainId,
        request.params.source_id,
        { limit: request.query.limit, skip: request.query.skip },
      )
      return {
        source: toSource(source),
        passages: passages.items.map(toPassage),
        total: passages.total,
        message: 'Source retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/sources/:source_id',
      operationId: 'sources_forget',
      tag: 'sources',
      summary: 'Forget a source',
      description:
        'Forgets the source with a full cascade (docs/forgetting.md): its passages, their vectors and index entries, structured records, and the entities, relationships and observations only it supported; what other sources support stays. Answers 202 with the task to poll (`result` counts what was removed). Forgetting a source whose forget is still running returns that task. Unknown or already forgotten: 404.',
      auth: 'brain',
      unavailableWhen: ['queue'],
      params: sourceParams,
      querystring: z.object(brainIdQuery),
      success: { 202: acceptedWire },
    },
    async (request, reply) => {
      const sourceId = request.params.source_id
      const { task } = await engram.sources.forget(request.brainId, sourceId)
      return reply
        .status(202)
        .send({ message: 'Forget accepted', task_id: task.id, source_id: sourceId })
    },
  )
}
