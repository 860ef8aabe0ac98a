import { z } from 'zod'
import { parseInput } from '../invalid-input.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import type { GraphDeletion } from '../sources/sources-api.js'
import type { LibraryContext } from './library-context.js'
import { jsonMap, list } from './library-schemas.js'

// REST's `/model/*` bodies in camelCase with their bounds, through the engine's GraphWriter (the
// routes' calls). Writes are synchronous: embedded and indexed when the call returns.

const label = z.string().min(1).max(128)
const isoDate = z.string().min(1).max(64)
const polarity = z.enum(['positive', 'negative', 'neutral'])
const propertyNames = list(500, 256)
const recordId = z.string().min(1).max(200)

const createEntityInput = z.strictObject({
  name: z.string().min(1).max(512),
  labels: z.array(label).max(50).optional(),
  description: z.string().max(20_000).nullable().optional(),
  properties: jsonMap().optional(),
  metadata: jsonMap().nullable().optional(),
  happenedAt: isoDate.nullable().optional(),
  polarity: polarity.optional(),
  /** When these match a stored entity (same normalised name, equal properties), it is updated. */
  identificationParams: jsonMap().optional(),
})
const updateEntityInput = z.strictObject({
  uuid: z.string().min(1).max(200),
  newName: z.string().min(1).max(512).optional(),
  newDescription: z.string().max(20_000).nullable().optional(),
  /** Replaces the labels. */
  newLabels: z.array(label).max(50).optional(),
  /** Merged into the properties. */
  newProperties: jsonMap().optional(),
  propertiesToRemove: propertyNames.optional(),
  newPolarity: polarity.optional(),
  newHappenedAt: isoDate.nullable().optional(),
})
const createRelationshipInput = z.strictObject({
  subjectUuid: z.string().min(1).max(200),
  objectUuid: z.string().min(1).max(200),
  predicateName: z.string().min(1).max(256),
  predicateDescription: z.string().max(20_000).optional(),
  amount: z.number().finite().nullable().optional(),
  properties: jsonMap().optional(),
  direction: z.enum(['in', 'out', 'neutral']).optional(),
  happenedAt: isoDate.nullable().optional(),
})
const updateRelationshipInput = z.strictObject({
  uuid: z.string().min(1).max(200),
  /** Merged into the properties; `deprecated: true` deprecates the relationship. */
  newProperties: jsonMap().optional(),
  propertiesToRemove: propertyNames.optional(),
  newDescription: z.string().max(20_000).nullable().optional(),
})

export type CreateEntityOptions = z.input<typeof createEntityInput>
export type UpdateEntityOptions = z.input<typeof updateEntityInput>
export type CreateRelationshipOptions = z.input<typeof createRelationshipInput>
export type UpdateRelationshipOptions = z.input<typeof updateRelationshipInput>

/**
 * Synchronous graph writes of one brain (REST `/model/*`), each with its changelog entry; the deletes
 * answer the counts removed.
 */
export interface EngramModel {
  /** Creates an entity, or updates the one `identificationParams` match (`created` says which). */
  createEntity(input: CreateEntityOptions): Promise<{ entity: Entity; created: boolean }>
  /** Unknown uuid: RESOURCE_NOT_FOUND. */
  updateEntity(input: UpdateEntityOptions): Promise<Entity>
  /** Links two stored entities; a missing one is RESOURCE_NOT_FOUND. */
  createRelationship(input: CreateRelationshipOptions): Promise<Relationship>
  updateRelationship(input: UpdateRelationshipOptions): Promise<Relationship>
  /**
   * Deletes an entity, the events it takes part in, their relationships, observations and vectors, and redacts
   * the changelog entries that quote it (docs/forgetting.md); unknown uuid: RESOURCE_NOT_FOUND.
   * Passages that mention it stay: `forget` their source to remove text.
   */
  deleteEntity(uuid: string): Promise<GraphDeletion>
  /** Deletes one relationship; unknown uuid: RESOURCE_NOT_FOUND. */
  deleteRelationship(uuid: string): Promise<GraphDeletion>
  /** Deletes one observation; unknown id: RESOURCE_NOT_FOUND. */
  deleteObservation(id: string): Promise<GraphDeletion>
}

export function libraryModel(ctx: LibraryContext, brain: string): EngramModel {
  const graph = () => ctx.engine.graph
  const write =
    <S extends z.ZodType, T>(what: string, schema: S, call: (input: z.output<S>) => Promise<T>) =>
    (input: z.input<S>) =>
      ctx.run(what, () => call(parseInput(what, schema, input, ['input'])))
  const remove = (what: string, call: (id: string) => Promise<GraphDeletion>) => (id: string) =>
    ctx.run(what, () => call(parseInput(what, recordId, id, ['id'])))

  return {
    createEntity: write('createEntity', createEntityInput, (input) =>
      graph().createEntity(brain, input),
    ),
    updateEntity: write('updateEntity', updateEntityInput, (input) =>
      graph().updateEntity(brain, input),
    ),
    createRelationship: write('createRelationship', createRelationshipInput, (input) =>
      // REST requires the description; the library defaults it to none, as the other text fields.
      graph().createRelationship(brain, {
        ...input,
        predicateDescription: input.predicateDescription ?? '',
      }),
    ),
    updateRelationship: write('updateRelationship', updateRelationshipInput, (input) =>
      graph().updateRelationship(brain, input),
    ),
    deleteEntity: remove('deleteEntity', (uuid) => ctx.engine.sources.deleteEntity(brain, uuid)),
    deleteRelationship: remove('deleteRelationship', (uuid) =>
      ctx.engine.sources.deleteRelationship(brain, uuid),
    ),
    deleteObservation: remove('deleteObservation', (id) =>
      ctx.engine.sources.deleteObservation(brain, id),
    ),
  }
}
