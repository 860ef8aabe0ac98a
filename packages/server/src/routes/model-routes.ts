import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { type Engram } from '@engram/core'
import { brainIdQuery, isoInstant } from '../schemas/common.js'
import { freeFormMap } from '../schemas/free-form-map.js'
import { deletionWire, toDeletion } from '../schemas/source-wire.js'
import { entityWire, relationshipWire, toEntity, toRelationship } from '../schemas/wire-records.js'
import { defineRoute } from './define-route.js'

const polarity = z.enum(['positive', 'negative', 'neutral'])
const brainId = { brain_id: z.string().max(200).optional() }
const label = z.string().min(1).max(128)
const isoDate = z.string().min(1).max(64)

/** `/model/*` (CONTRACT.md section 2): synchronous graph writes, each with its changelog entry. */
export function modelRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/model/entity',
      operationId: 'model_create_entity',
      tag: 'model',
      summary: 'Create an entity',
      description:
        'Creates an entity, or updates the entity that `identification_params` match (its uuid never changes). Returns a one-element array. The entity is embedded and indexed at once.',
      auth: 'brain',
      unavailableWhen: ['embedder'],
      body: z.object({
        name: z.string().min(1).max(512),
        labels: z.array(label).max(50).default([]),
        description: z.string().max(20_000).nullable().optional(),
        properties: freeFormMap().default({}),
        metadata: freeFormMap().nullable().optional(),
        happened_at: isoDate.nullable().optional(),
        polarity: polarity.default('neutral'),
        identification_params: freeFormMap().optional(),
        ...brainId,
      }),
      success: { 201: z.array(entityWire) },
    },
    async (request, reply) => {
      const b = request.body
      const { entity } = await engram.graph.createEntity(request.brainId, {
        name: b.name,
        labels: b.labels,
        description: b.description ?? null,
        properties: b.properties,
        metadata: b.metadata ?? null,
        happenedAt: b.happened_at ?? null,
        polarity: b.polarity,
        ...(b.identification_params !== undefined
          ? { identificationParams: b.identification_params }
          : {}),
      })
      return reply.status(201).send([toEntity(entity)])
    },
  )

  defineRoute(
    app,
    {
      method: 'PUT',
      url: '/model/entity',
      operationId: 'model_update_entity',
      tag: 'model',
      summary: 'Update an entity',
      description:
        '`new_labels` replaces the labels, `new_properties` merges, `properties_to_remove` deletes keys. Unknown uuid: 404.',
      auth: 'brain',
      unavailableWhen: ['embedder'],
      body: z.object({
        uuid: z.string().min(1).max(200),
        new_name: z.string().min(1).max(512).optional(),
        new_description: z.string().max(20_000).nullable().optional(),
        new_labels: z.array(label).max(50).optional(),
        new_properties: freeFormMap().optional(),
        properties_to_remove: z.array(z.string().max(256)).max(500).default([]),
        new_polarity: polarity.optional(),
        new_happened_at: isoDate.nullable().optional(),
        ...brainId,
      }),
      success: { 200: entityWire },
    },
    async (request) => {
      const b = request.body
      const entity = await engram.graph.updateEntity(request.brainId, {
        uuid: b.uuid,
        ...(b.new_name !== undefined ? { newName: b.new_name } : {}),
        ...(b.new_description !== undefined ? { newDescription: b.new_description } : {}),
        ...(b.new_labels !== undefined ? { newLabels: b.new_labels } : {}),
        ...(b.new_properties !== undefined ? { newProperties: b.new_properties } : {}),
        propertiesToRemove: b.properties_to_remove,
        ...(b.new_polarity !== undefined ? { newPolarity: b.new_polarity } : {}),
        ...(b.new_happened_at !== undefined ? { newHappenedAt: b.new_happened_at } : {}),
      })
      const records = engram.records
      return toEntity(entity, await records.entityObservations(request.brainId, entity.uuid))
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/model/relationship',
      operationId: 'model_create_relationship',
      tag: 'model',
      summary: 'Create a relationship',
      description:
        'Links two existing entities (by uuid). Returns the new relationship uuid as a JSON string. A missing subject or object: 404.',
      auth: 'brain',
      body: z.object({
        subject_uuid: z.string().min(1).max(200),
        object_uuid: z.string().min(1).max(200),
        predicate_name: z.string().min(1).max(256),
        predicate_description: z.string().max(20_000),
        amount: z.number().finite().nullable().optional(),
        properties: freeFormMap().default({}),
        direction: z.enum(['in', 'out', 'neutral']).default('neutral'),
        happened_at: isoDate.nullable().optional(),
        valid_at: isoInstant
          .nullable()
          .optional()
          .describe(
            'Event time the fact became true (docs/time.md); default `happened_at`, else now.',
          ),
        invalid_at: isoInstant
          .nullable()
          .optional()
          .describe('Event time the fact stopped being true; default none.'),
        ...brainId,
      }),
      success: { 201: z.string() },
    },
    async (request, reply) => {
      const b = request.body
      const relationship = await engram.graph.createRelationship(request.brainId, {
        subjectUuid: b.subject_uuid,
        objectUuid: b.object_uuid,
        predicateName: b.predicate_name,
        predicateDescription: b.predicate_description,
        amount: b.amount ?? null,
        properties: b.properties,
        direction: b.direction,
        happenedAt: b.happened_at ?? null,
        ...(b.valid_at != null ? { validAt: b.valid_at } : {}),
        ...(b.invalid_at != null ? { invalidAt: b.invalid_at } : {}),
      })
      return reply.status(201).type('application/json').send(JSON.stringify(relationship.uuid))
    },
  )

  defineRoute(
    app,
    {
      method: 'PUT',
      url: '/model/relationship',
      operationId: 'model_update_relationship',
      tag: 'model',
      summary: 'Update a relationship',
      description:
        "`new_properties` merges (`deprecated: true` deprecates the relationship: it ends now), `properties_to_remove` deletes keys. `valid_at` / `invalid_at` correct the fact's validity window (docs/time.md): an `invalid_at` ends the fact (deprecated once it has passed, `expired_at` now) and `null` reopens it; the legs of its event follow, and a `relationship_invalidated` changelog entry records an end.",
      auth: 'brain',
      body: z.object({
        uuid: z.string().min(1).max(200),
        new_properties: freeFormMap().default({}),
        properties_to_remove: z.array(z.string().max(256)).max(500).default([]),
        new_description: z.string().max(20_000).nullable().optional(),
        valid_at: isoInstant
          .nullable()
          .optional()
          .describe('New start of the validity window; null clears it.'),
        invalid_at: isoInstant
          .nullable()
          .optional()
          .describe('New end of the validity window; null reopens the fact.'),
        ...brainId,
      }),
      success: { 200: relationshipWire },
    },
    async (request) => {
      const b = request.body
      const relationship = await engram.graph.updateRelationship(request.brainId, {
        uuid: b.uuid,
        newProperties: b.new_properties,
        propertiesToRemove: b.properties_to_remove,
        ...(b.new_description !== undefined ? { newDescription: b.new_description } : {}),
        ...(b.valid_at !== undefined ? { validAt: b.valid_at } : {}),
        ...(b.invalid_at !== undefined ? { invalidAt: b.invalid_at } : {}),
      })
      return toRelationship(relationship)
    },
  )

  modelDeleteRoutes(app, engram)
}

const uuidParams = z.object({ uuid: z.string().min(1).max(200) })

/**
 * `DELETE /model/*` (docs/forgetting.md): synchronous deletes of one record and what cannot stand
 * without it. The text that mentions it stays; forget the source to remove text.
 */
function modelDeleteRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/model/entity/:uuid',
      operationId: 'model_delete_entity',
      tag: 'model',
      summary: 'Delete an entity',
      description:
        'Deletes the entity with the events it takes part in, their relationships, the observations about them and their vectors, and redacts the changelog entries that quote them; answers the counts removed. Passages that mention it stay (DELETE /sources/{source_id} removes text). Unknown uuid: 404.',
      auth: 'brain',
      params: uuidParams,
      querystring: z.object(brainIdQuery),
      success: { 200: deletionWire },
    },
    async (request) =>
      toDeletion(await engram.sources.deleteEntity(request.brainId, request.params.uuid)),
  )

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/model/relationship/:uuid',
      operationId: 'model_delete_relationship',
      tag: 'model',
      summary: 'Delete a relationship',
      description:
        'Deletes one relationship and redacts the changelog entries that quote it; answers the counts removed. Unknown uuid: 404.',
      auth: 'brain',
      params: uuidParams,
      querystring: z.object(brainIdQuery),
      success: { 200: deletionWire },
    },
    async (request) =>
      toDeletion(await engram.sources.deleteRelationship(request.brainId, request.params.uuid)),
  )

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/model/observation/:id',
      operationId: 'model_delete_observation',
      tag: 'model',
      summary: 'Delete an observation',
      description: 'Deletes one observation; answers the counts removed. Unknown id: 404.',
      auth: 'brain',
      params: z.object({ id: z.string().min(1).max(200) }),
      querystring: z.object(brainIdQuery),
      success: { 200: deletionWire },
    },
    async (request) =>
      toDeletion(await engram.sources.deleteObservation(request.brainId, request.params.id)),
  )
}
