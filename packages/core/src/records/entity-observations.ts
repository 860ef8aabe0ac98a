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

/** The first {@link OBSERVATIONS_PER_ENTITY} observations about the entity `uuid`. */
export async function observationsOf(store: BrainStore, uuid: string): Promise<Observation[]> {
  const page = await store.observations.list({
    resourceId: uuid,
    limit: OBSERVATIONS_PER_ENTITY,
    skip: 0,
  })
  return page.items
}

/** Each entity with its observations (one store read per entity). */
export function entityObservations(
  store: BrainStore,
  entities: Entity[],
): Promise<EntityWithObservations[]> {
  return Promise.all(
    entities.map(async (entity) => ({
      entity,
      observations: await observationsOf(store, entity.uuid),
    })),
  )
}
