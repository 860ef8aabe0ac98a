import type { Entity } from '../model/entity.js'
import type { Page, Paged } from './storage-page.js'

export interface EntityQuery extends Page {
  /** Any-match label filter. */
  labels?: string[]
  /** Case-insensitive substring of the name. */
  queryText?: string
}

/** A brain's entities (graph nodes). Written only through `BrainStore.apply`. */
export interface EntityRepository {
  /** The entities with these uuids, in the order of `uuids`; unknown uuids are left out. */
  get(uuids: string[]): Promise<Entity[]>
  /**
   * Entities whose normalised name or alias equals `normalizedName` (lower-case, collapsed spaces, as
   * `normalizeEntityName` makes it), by uuid.
   */
  findByName(normalizedName: string): Promise<Entity[]>
  /** Newest first (`lastUpdated`, then uuid, descending), filtered by `query`. */
  list(query: EntityQuery): Promise<Paged<Entity>>
  /** All entities in uuid order, in pages; `after` is the last uuid of the previous page. */
  scan(after: string | null, limit: number): Promise<Entity[]>
  /** Distinct labels of the brain's entities, sorted (for `/meta/entity-labels`). */
  labels(): Promise<string[]>
  /** Distinct property keys of the brain's entities, sorted (for `/meta/entity-properties`). */
  propertyKeys(): Promise<string[]>
}
