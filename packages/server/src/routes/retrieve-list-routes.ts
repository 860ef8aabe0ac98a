import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { notFound, type BrainStore, type Engram, type Entity } from '@engram/core'
import { brainIdQuery, csvList, pagination } from '../schemas/common.js'
import { changelogWire, toChangelog } from '../schemas/changelog-wire.js'
import {
  entityWire,
  observationWire,
  structuredWire,
  toEntity,
  toObservation,
  toRelationship,
  toStructured,
  tripleWire,
} from '../schemas/wire-records.js'
import { defineRoute } from './define-route.js'

const text = z.string().max(2000).optional()
const idParams = z.object({ id: z.string().min(1).max(200) })

/** Entities with their observations (`resource_id` = the entity). */
export async function withObservations(store: BrainStore, entities: Entity[]) {
  return Promise.all(
    entities.map(async (e) =>
      toEntity(
        e,
        (await store.listObservations({ resourceId: e.uuid, limit: 100, skip: 0 })).items,
      ),
    ),
  )
}

/** The record lists of `/retrieve/*` (CONTRACT.md section 6), newest first. */
export function retrieveListRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/entities',
      operationId: 'retrieve_entities',
      tag: 'retrieve',
      summary: 'List entities',
      description:
        'Entities filtered by any of `node_labels` and a case-insensitive substring of the name.',
      auth: 'brain',
      querystring: z.object({
        node_labels: csvList,
        query_text: text,
        ...pagination,
        ...brainIdQuery,
      }),
      success: {
        200: z.object({
          entities: z.array(entityWire),
          total: z.number().int(),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const store = await engram.store(request.brainId)
      const q = request.query
      const page = await store.listEntities({
        limit: q.limit,
        skip: q.skip,
        ...(q.node_labels ? { labels: q.node_labels } : {}),
        ...(q.query_text ? { queryText: q.query_text } : {}),
      })
      return {
        entities: await withObservations(store, page.items),
        total: page.total,
        message: 'Entities retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/relationships',
      operationId: 'retrieve_relationships',
      tag: 'retrieve',
      summary: 'List relationships',
      description:
        'Relationships as `{subject, predicate, object}` with type, endpoint-label and text filters.',
      auth: 'brain',
      querystring: z.object({
        relationship_types: csvList,
        from_node_labels: csvList,
        to_node_labels: csvList,
        query_text: text,
        query_search_target: z.enum(['all', 'source', 'target']).default('all'),
        ...pagination,
        ...brainIdQuery,
      }),
      success: {
        200: z.object({
          relationships: z.array(tripleWire),
          total: z.number().int(),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const q = request.query
      const page = await (
        await engram.store(request.brainId)
      ).listRelationships({
        limit: q.limit,
        skip: q.skip,
        target: q.query_search_target,
        ...(q.relationship_types ? { types: q.relationship_types } : {}),
        ...(q.from_node_labels ? { fromLabels: q.from_node_labels } : {}),
        ...(q.to_node_labels ? { toLabels: q.to_node_labels } : {}),
        ...(q.query_text ? { queryText: q.query_text } : {}),
      })
      return {
        relationships: page.items.map((t) => ({
          subject: toEntity(t.subject),
          predicate: toRelationship(t.predicate),
          object: toEntity(t.object),
        })),
        total: page.total,
        message: 'Relationships retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/observations',
      operationId: 'retrieve_observations',
      tag: 'retrieve',
      summary: 'List observations',
      description: 'Observations by `resource_id`, any of `labels` (metadata.labels) and text.',
      auth: 'brain',
      querystring: z.object({
        resource_id: z.string().max(200).optional(),
        labels: csvList,
        query_text: text,
        ...pagination,
        ...brainIdQuery,
      }),
      success: {
        200: z.object({
          observations: z.array(observationWire),
          count: z.number().int(),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const q = request.query
      const page = await (
        await engram.store(request.brainId)
      ).listObservations({
        limit: q.limit,
        skip: q.skip,
        ...(q.resource_id ? { resourceId: q.resource_id } : {}),
        ...(q.labels ? { labels: q.labels } : {}),
        ...(q.query_text ? { queryText: q.query_text } : {}),
      })
      return {
        observations: page.items.map(toObservation),
        count: page.total,
        message: 'Observations retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/observations/labels',
      operationId: 'retrieve_observation_labels',
      tag: 'retrieve',
      summary: 'Observation labels',
      description: 'Distinct labels found in observations’ `metadata.labels`.',
      auth: 'brain',
      querystring: z.object(brainIdQuery),
      success: {
        200: z.object({
          labels: z.array(z.string()),
          count: z.number().int(),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const labels = await (await engram.store(request.brainId)).observationLabels()
      return { labels, count: labels.length, message: 'Observation labels retrieved successfully' }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/observations/:id',
      operationId: 'retrieve_observation',
      tag: 'retrieve',
      summary: 'Get an observation',
      description: 'One observation by id; 404 when unknown in this brain.',
      auth: 'brain',
      params: idParams,
      querystring: z.object(brainIdQuery),
      success: { 200: z.object({ observation: observationWire, message: z.string() }) },
    },
    async (request) => {
      const observation = await (
        await engram.store(request.brainId)
      ).getObservation(request.params.id)
      if (observation === null) throw notFound('Observation', request.params.id)
      return {
        observation: toObservation(observation),
        message: 'Observation retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/structured-data',
      operationId: 'retrieve_structured_data',
      tag: 'retrieve',
      summary: 'List structured data',
      description:
        'Structured-data records filtered by any of `types` and a text match over their JSON.',
      auth: 'brain',
      querystring: z.object({ types: csvList, query_text: text, ...pagination, ...brainIdQuery }),
      success: {
        200: z.object({
          data: z.array(structuredWire),
          count: z.number().int(),
          total: z.number().int(),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const q = request.query
      const page = await (
        await engram.store(request.brainId)
      ).listStructured({
        limit: q.limit,
        skip: q.skip,
        ...(q.types ? { types: q.types } : {}),
        ...(q.query_text ? { queryText: q.query_text } : {}),
      })
      return {
        data: page.items.map(toStructured),
        count: page.items.length,
        total: page.total,
        message: 'Structured data retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/structured-data/types',
      operationId: 'retrieve_structured_data_types',
      tag: 'retrieve',
      summary: 'Structured data types',
      description: 'Distinct `types` of the structured-data records.',
      auth: 'brain',
      querystring: z.object(brainIdQuery),
      success: {
        200: z.object({ types: z.array(z.string()), count: z.number().int(), message: z.string() }),
      },
    },
    async (request) => {
      const types = await (await engram.store(request.brainId)).structuredTypes()
      return { types, count: types.length, message: 'Structured data types retrieved successfully' }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/structured-data/:id',
      operationId: 'retrieve_structured_data_item',
      tag: 'retrieve',
      summary: 'Get a structured-data record',
      description: 'One structured-data record by id; 404 when unknown in this brain.',
      auth: 'brain',
      params: idParams,
      querystring: z.object(brainIdQuery),
      success: { 200: z.object({ data: structuredWire, message: z.string() }) },
    },
    async (request) => {
      const record = await (await engram.store(request.brainId)).getStructured(request.params.id)
      if (record === null) throw notFound('Structured data', request.params.id)
      return { data: toStructured(record), message: 'Structured data retrieved successfully' }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/changelogs',
      operationId: 'retrieve_changelogs',
      tag: 'retrieve',
      summary: 'List changelog entries',
      description:
        'Graph writes, newest first, filtered by any of `types` and text over the change.',
      auth: 'brain',
      querystring: z.object({ types: csvList, query_text: text, ...pagination, ...brainIdQuery }),
      success: {
        200: z.object({
          changelogs: z.array(changelogWire),
          count: z.number().int(),
          message: z.string(),
        }),
      },
    },
    async (request) => {
      const q = request.query
      const page = await (
        await engram.store(request.brainId)
      ).listChangelog({
        limit: q.limit,
        skip: q.skip,
        ...(q.types ? { types: q.types } : {}),
        ...(q.query_text ? { queryText: q.query_text } : {}),
      })
      return {
        changelogs: page.items.map(toChangelog),
        count: page.total,
        message: 'Changelogs retrieved successfully',
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/changelogs/types',
      operationId: 'retrieve_changelog_types',
      tag: 'retrieve',
      summary: 'Changelog types',
      description: 'Distinct change types present in the brain.',
      auth: 'brain',
      querystring: z.object(brainIdQuery),
      success: {
        200: z.object({ types: z.array(z.string()), count: z.number().int(), message: z.string() }),
      },
    },
    async (request) => {
      const types = await (await engram.store(request.brainId)).changelogTypes()
      return { types, count: types.length, message: 'Changelog types retrieved successfully' }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/changelogs/:id',
      operationId: 'retrieve_changelog',
      tag: 'retrieve',
      summary: 'Get a changelog entry',
      description: 'One changelog entry by id; 404 when unknown in this brain.',
      auth: 'brain',
      params: idParams,
      querystring: z.object(brainIdQuery),
      success: { 200: z.object({ changelog: changelogWire, message: z.string() }) },
    },
    async (request) => {
      const entry = await (await engram.store(request.brainId)).getChangelog(request.params.id)
      if (entry === null) throw notFound('Changelog', request.params.id)
      return { changelog: toChangelog(entry), message: 'Changelog retrieved successfully' }
    },
  )
}
