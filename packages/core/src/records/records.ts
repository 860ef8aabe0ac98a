import type {
  ChangelogQuery,
  EntityQuery,
  ObservationQuery,
  Paged,
  PassageQuery,
  RelationshipQuery,
  StructuredQuery,
  Triple,
} from '../contracts/storage-adapter.js'
import type { ChangelogEntry } from '../model/changelog-entry.js'
import type { Observation } from '../model/observation.js'
import type { Passage } from '../model/passage.js'
import type { StructuredRecord } from '../model/structured-record.js'
import type { EntityWithObservations } from './entity-observations.js'

/**
 * The record lookups behind `/retrieve/*` lists and `/meta/*`, one brain at a time. Servers and tools
 * call these, never a store's repositories: the filter semantics (a blank `queryText` or an empty
 * filter list means no filter) and what comes with a record (an entity's observations) live here once.
 * Every member throws BRAIN_NOT_FOUND for an unknown brain; the `get*` members throw RESOURCE_NOT_FOUND
 * for an unknown id.
 */
export interface Records {
  /** Entities, newest first, each with its first observations. */
  listEntities(brainId: string, query: EntityQuery): Promise<Paged<EntityWithObservations>>
  /** Relationships with both endpoints, newest first. */
  listRelationships(brainId: string, query: RelationshipQuery): Promise<Paged<Triple>>
  /** Observations, newest first. */
  listObservations(brainId: string, query: ObservationQuery): Promise<Paged<Observation>>
  /** One observation. */
  getObservation(brainId: string, id: string): Promise<Observation>
  /** Distinct `metadata.labels` of the observations, sorted. */
  observationLabels(brainId: string): Promise<string[]>
  /** Structured-data records, newest first. */
  listStructured(brainId: string, query: StructuredQuery): Promise<Paged<StructuredRecord>>
  /** One structured-data record. */
  getStructured(brainId: string, id: string): Promise<StructuredRecord>
  /** Distinct types of the structured-data records, sorted. */
  structuredTypes(brainId: string): Promise<string[]>
  /** Changelog entries, newest first. */
  listChangelog(brainId: string, query: ChangelogQuery): Promise<Paged<ChangelogEntry>>
  /** One changelog entry. */
  getChangelog(brainId: string, id: string): Promise<ChangelogEntry>
  /** Distinct changelog types, sorted. */
  changelogTypes(brainId: string): Promise<string[]>
  /** Passages, newest first, optionally one task's. */
  listPassages(brainId: string, query: PassageQuery): Promise<Paged<Passage>>
  /** The observations shown with an entity (its first {@link OBSERVATIONS_PER_ENTITY}, newest first). */
  entityObservations(brainId: string, uuid: string): Promise<Observation[]>
  /** Distinct entity labels, sorted (`/meta/entity-labels`). */
  entityLabels(brainId: string): Promise<string[]>
  /** Distinct entity property keys, sorted (`/meta/entity-properties`). */
  entityPropertyKeys(brainId: string): Promise<string[]>
  /** Distinct relationship names, sorted (`/meta/relationships-properties`). */
  relationshipNames(brainId: string): Promise<string[]>
}
