import type { BrainStore } from '../contracts/storage-adapter.js'
import { notFound } from '../errors.js'
import { entityObservations, observationsOf } from './entity-observations.js'
import type { Records } from './records.js'
import { withoutBlankFilters } from './without-blank-filters.js'

/** Where records are read: the engine's `store`, which checks that the brain exists. */
export interface RecordsSource {
  store(brainId: string): Promise<BrainStore>
}

/** Throws RESOURCE_NOT_FOUND (named `what`) for a missing record. */
function found<T>(record: T | null, what: string, id: string): T {
  if (record === null) throw notFound(what, id)
  return record
}

/** The record lookups of {@link Records} over an engine's stores. */
export function createRecords(source: RecordsSource): Records {
  const { store } = source
  return {
    async listEntities(brainId, query) {
      const s = await store(brainId)
      const page = await s.entities.list(withoutBlankFilters(query))
      return { items: await entityObservations(s, page.items), total: page.total }
    },
    async listRelationships(brainId, query) {
      return (await store(brainId)).relationships.list(withoutBlankFilters(query))
    },
    async listObservations(brainId, query) {
      return (await store(brainId)).observations.list(withoutBlankFilters(query))
    },
    async getObservation(brainId, id) {
      return found(await (await store(brainId)).observations.get(id), 'Observation', id)
    },
    async observationLabels(brainId) {
      return (await store(brainId)).observations.labels()
    },
    async listStructured(brainId, query) {
      return (await store(brainId)).structured.list(withoutBlankFilters(query))
    },
    async getStructured(brainId, id) {
      return found(await (await store(brainId)).structured.get(id), 'Structured data', id)
    },
    async structuredTypes(brainId) {
      return (await store(brainId)).structured.types()
    },
    async listChangelog(brainId, query) {
      return (await store(brainId)).changelog.list(withoutBlankFilters(query))
    },
    async getChangelog(brainId, id) {
      return found(await (await store(brainId)).changelog.get(id), 'Changelog', id)
    },
    async changelogTypes(brainId) {
      return (await store(brainId)).changelog.types()
    },
    async listPassages(brainId, query) {
      return (await store(brainId)).passages.list(withoutBlankFilters(query))
    },
    async entityObservations(brainId, uuid) {
      return observationsOf(await store(brainId), uuid)
    },
    async entityLabels(brainId) {
      return (await store(brainId)).entities.labels()
    },
    async entityPropertyKeys(brainId) {
      return (await store(brainId)).entities.propertyKeys()
    },
    async relationshipNames(brainId) {
      return (await store(brainId)).relationships.names()
    },
  }
}
