import type { BrainStore } from '../contracts/storage-adapter.js'
import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'

/** Observations shown with an entity (its `resource_id` is the entity), newest first. */
export const OBSERVATIONS_PER_ENTITY = 100

/** An entity and the observations about it, as lists and lookups return it. */
export interface EntityWithObservations {
  entity: Entity
  observations: Observation[]
}

/**
 * Per resource id (an entity uuid or a passage id), its newest `limitEach` observations: in one store
 * call where the adapter has `ofResources`, else one `list` per id (which also counts them).
 */
export async function observationsOfResources(
  store: BrainStore,
  resourceIds: readonly string[],
  limitEach: number,
): Promise<Observation[][]> {
  if (resourceIds.length === 0) return []
  const repository = store.observations
  if (repository.ofResources !== undefined) return repository.ofResources(resourceIds, limitEach)
  const pages = await Promise.all(
    resourceIds.map((resourceId) => repository.list({ resourceId, limit: limitEach, skip: 0 })),
  )
  return pages.map((page) => page.items)
}

/** The first {@link OBSERVATIONS_PER_ENTITY} observations about the entity `uuid`. */
export async function observationsOf(store: BrainStore, uuid: string): Promise<Observation[]> {
  return (await observationsOfResources(store, [uuid], OBSERVATIONS_PER_ENTITY))[0]!
}

/** Each entity with its observations (one store call for all of them where the adapter can). */
export async function entityObservations(
  store: BrainStore,
  entities: Entity[],
): Promise<EntityWithObservations[]> {
  const observations = await observationsOfResources(
    store,
    entities.map((e) => e.uuid),
    OBSERVATIONS_PER_ENTITY,
  )
  return entities.map((entity, i) => ({ entity, observations: observations[i]! }))
}
