import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import type { Page, Paged } from './storage-page.js'

export interface RelationshipQuery extends Page {
  /** Any-match on the relationship name. */
  types?: string[]
  /** Any-match on the subject's labels. */
  fromLabels?: string[]
  /** Any-match on the object's labels. */
  toLabels?: string[]
  /** Case-insensitive substring of subject name, object name or description (per `target`). */
  queryText?: string
  /** Where `queryText` looks: both names and the description (`all`), the subject's or the object's name. */
  target?: 'all' | 'source' | 'target'
}

/** A relationship with both endpoints, as lists return it. */
export interface Triple {
  subject: Entity
  predicate: Relationship
  object: Entity
}

/** A brain's relationships (graph edges). Written only through `BrainStore.apply`. */
export interface RelationshipRepository {
  /** The relationships with these uuids, in the order of `uuids`; unknown uuids are left out. */
  get(uuids: string[]): Promise<Relationship[]>
  /** Every relationship touching the entity, as subject or object (a self-loop once), deprecated included. */
  of(entityUuid: string): Promise<Relationship[]>
  /**
   * Newest first (`lastUpdated`, then uuid, descending), with both endpoints; a relationship whose
   * subject or object is missing is left out (and not counted).
   */
  list(query: RelationshipQuery): Promise<Paged<Triple>>
  /** All relationships in uuid order, in pages; `after` is the last uuid of the previous page. */
  scan(after: string | null, limit: number): Promise<Relationship[]>
  /** Distinct relationship names, sorted (for `/meta/relationships-properties`). */
  names(): Promise<string[]>
}
