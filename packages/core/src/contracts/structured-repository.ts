import type { StructuredRecord } from '../model/structured-record.js'
import type { Page, Paged } from './storage-page.js'

export interface StructuredQuery extends Page {
  /** Any-match on the record's `types`. */
  types?: string[]
  /** Case-insensitive substring of the JSON of data, types and metadata. */
  queryText?: string
}

/** A brain's structured-data records. Written only through `BrainStore.apply`. */
export interface StructuredRepository {
  /** One record, or null when the id is unknown. */
  get(id: string): Promise<StructuredRecord | null>
  /** Newest first (`insertedAt`, then id, descending), filtered by `query`. */
  list(query: StructuredQuery): Promise<Paged<StructuredRecord>>
  /** Distinct `types` of the records, sorted. */
  types(): Promise<string[]>
}
