import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { entityObservations, type BrainStore, type Engram, type Entity } from '@engram/core'
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
import { recordRoute, type RecordRoute } from './record-route.js'

const text = z.string().max(2000).optional()
const idParams = z.object({ id: z.string().min(1).max(200) })
const brainOnly = () => z.object(brainIdQuery)
const distinct = (key: 'labels' | 'types') =>
  z.object({ [key]: z.array(z.string()), count: z.number().int(), message: z.string() })

/** Entities on the wire with their observations (`resource_id` = the entity), read through core. */
export async function withObservations(store: BrainStore, entities: Entity[]) {
  return (await entityObservations(store, entities)).map((e) => toEntity(e.entity, e.observations))
}

/** The record lists of `/retrieve/*` (CONTRACT.md section 6), newest first; one declaration each. */
export const RETRIEVE_LIST_ROUTES: RecordRoute[] = [
  recordRoute({
    url: '/retrieve/entities',
    operationId: 'retrieve_entities',
    tag: 'retrieve',
    summary: 'List entities',
    description:
      'Entities filtered by any of `node_labels` and a case-insensitive substring of the name.',
    querystring: z.object({
      node_labels: csvList,
      query_text: text,
      ...pagination,
      ...brainIdQuery,
    }),
    response: z.object({
      entities: z.array(entityWire),
      total: z.number().int(),
      message: z.string(),
    }),
    read: (records, brainId, q) =>
      records.listEntities(brainId, {
        limit: q.limit,
        skip: q.skip,
        labels: q.node_labels,
        queryText: q.query_text,
      }),
    toWire: (page) => ({
      entities: page.items.map((e) => toEntity(e.entity, e.observations)),
      total: page.total,
      message: 'Entities retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/relationships',
    operationId: 'retrieve_relationships',
    tag: 'retrieve',
    summary: 'List relationships',
    description:
      'Relationships as `{subject, predicate, object}` with type, endpoint-label and text filters.',
    querystring: z.object({
      relationship_types: csvList,
      from_node_labels: csvList,
      to_node_labels: csvList,
      query_text: text,
      query_search_target: z.enum(['all', 'source', 'target']).default('all'),
      ...pagination,
      ...brainIdQuery,
    }),
    response: z.object({
      relationships: z.array(tripleWire),
      total: z.number().int(),
      message: z.string(),
    }),
    read: (records, brainId, q) =>
      records.listRelationships(brainId, {
        limit: q.limit,
        skip: q.skip,
        target: q.query_search_target,
        types: q.relationship_types,
        fromLabels: q.from_node_labels,
        toLabels: q.to_node_labels,
        queryText: q.query_text,
      }),
    toWire: (page) => ({
      relationships: page.items.map((t) => ({
        subject: toEntity(t.subject),
        predicate: toRelationship(t.predicate),
        object: toEntity(t.object),
      })),
      total: page.total,
      message: 'Relationships retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/observations',
    operationId: 'retrieve_observations',
    tag: 'retrieve',
    summary: 'List observations',
    description: 'Observations by `resource_id`, any of `labels` (metadata.labels) and text.',
    querystring: z.object({
      resource_id: z.string().max(200).optional(),
      labels: csvList,
      query_text: text,
      ...pagination,
      ...brainIdQuery,
    }),
    response: z.object({
      observations: z.array(observationWire),
      count: z.number().int(),
      message: z.string(),
    }),
    read: (records, brainId, q) =>
      records.listObservations(brainId, {
        limit: q.limit,
        skip: q.skip,
        resourceId: q.resource_id,
        labels: q.labels,
        queryText: q.query_text,
      }),
    toWire: (page) => ({
      observations: page.items.map(toObservation),
      count: page.total,
      message: 'Observations retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/observations/labels',
    operationId: 'retrieve_observation_labels',
    tag: 'retrieve',
    summary: 'Observation labels',
    description: 'Distinct labels found in observations’ `metadata.labels`.',
    querystring: brainOnly(),
    response: distinct('labels'),
    read: (records, brainId) => records.observationLabels(brainId),
    toWire: (labels) => ({
      labels,
      count: labels.length,
      message: 'Observation labels retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/observations/:id',
    operationId: 'retrieve_observation',
    tag: 'retrieve',
    summary: 'Get an observation',
    description: 'One observation by id; 404 when unknown in this brain.',
    params: idParams,
    querystring: brainOnly(),
    response: z.object({ observation: observationWire, message: z.string() }),
    read: (records, brainId, _q, p) => records.getObservation(brainId, p.id),
    toWire: (observation) => ({
      observation: toObservation(observation),
      message: 'Observation retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/structured-data',
    operationId: 'retrieve_structured_data',
    tag: 'retrieve',
    summary: 'List structured data',
    description:
      'Structured-data records filtered by any of `types` and a text match over their JSON.',
    querystring: z.object({ types: csvList, query_text: text, ...pagination, ...brainIdQuery }),
    response: z.object({
      data: z.array(structuredWire),
      count: z.number().int(),
      total: z.number().int(),
      message: z.string(),
    }),
    read: (records, brainId, q) =>
      records.listStructured(brainId, {
        limit: q.limit,
        skip: q.skip,
        types: q.types,
        queryText: q.query_text,
      }),
    toWire: (page) => ({
      data: page.items.map(toStructured),
      count: page.items.length,
      total: page.total,
      message: 'Structured data retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/structured-data/types',
    operationId: 'retrieve_structured_data_types',
    tag: 'retrieve',
    summary: 'Structured data types',
    description: 'Distinct `types` of the structured-data records.',
    querystring: brainOnly(),
    response: distinct('types'),
    read: (records, brainId) => records.structuredTypes(brainId),
    toWire: (types) => ({
      types,
      count: types.length,
      message: 'Structured data types retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/structured-data/:id',
    operationId: 'retrieve_structured_data_item',
    tag: 'retrieve',
    summary: 'Get a structured-data record',
    description: 'One structured-data record by id; 404 when unknown in this brain.',
    params: idParams,
    querystring: brainOnly(),
    response: z.object({ data: structuredWire, message: z.string() }),
    read: (records, brainId, _q, p) => records.getStructured(brainId, p.id),
    toWire: (record) => ({
      data: toStructured(record),
      message: 'Structured data retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/changelogs',
    operationId: 'retrieve_changelogs',
    tag: 'retrieve',
    summary: 'List changelog entries',
    description: 'Graph writes, newest first, filtered by any of `types` and text over the change.',
    querystring: z.object({ types: csvList, query_text: text, ...pagination, ...brainIdQuery }),
    response: z.object({
      changelogs: z.array(changelogWire),
      count: z.number().int(),
      message: z.string(),
    }),
    read: (records, brainId, q) =>
      records.listChangelog(brainId, {
        limit: q.limit,
        skip: q.skip,
        types: q.types,
        queryText: q.query_text,
      }),
    toWire: (page) => ({
      changelogs: page.items.map(toChangelog),
      count: page.total,
      message: 'Changelogs retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/changelogs/types',
    operationId: 'retrieve_changelog_types',
    tag: 'retrieve',
    summary: 'Changelog types',
    description: 'Distinct change types present in the brain.',
    querystring: brainOnly(),
    response: distinct('types'),
    read: (records, brainId) => records.changelogTypes(brainId),
    toWire: (types) => ({
      types,
      count: types.length,
      message: 'Changelog types retrieved successfully',
    }),
  }),
  recordRoute({
    url: '/retrieve/changelogs/:id',
    operationId: 'retrieve_changelog',
    tag: 'retrieve',
    summary: 'Get a changelog entry',
    description: 'One changelog entry by id; 404 when unknown in this brain.',
    params: idParams,
    querystring: brainOnly(),
    response: z.object({ changelog: changelogWire, message: z.string() }),
    read: (records, brainId, _q, p) => records.getChangelog(brainId, p.id),
    toWire: (entry) => ({
      changelog: toChangelog(entry),
      message: 'Changelog retrieved successfully',
    }),
  }),
]

/** Registers {@link RETRIEVE_LIST_ROUTES}, reading through core's record operations. */
export function retrieveListRoutes(app: FastifyInstance, engram: Engram) {
  const records = engram.records
  for (const route of RETRIEVE_LIST_ROUTES) route(app, records)
}
