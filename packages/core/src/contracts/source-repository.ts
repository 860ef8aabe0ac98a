import type { JsonObject } from '../model/common.js'
import type { Source } from '../model/source.js'
import type { Page, Paged } from './storage-page.js'

export interface SourceQuery extends Page {
  /** Case-insensitive substring of the id, title or file name. */
  queryText?: string
  /** Every key must equal the source's `meta` value (strings, numbers, booleans compared as JSON). */
  meta?: JsonObject
}

/** A brain's sources. Written only through `BrainStore.apply`. */
export interface SourceRepository {
  /** One source, tombstones (`status: 'forgotten'`) included; null when the id is unknown. */
  get(id: string): Promise<Source | null>
  /** Active sources only, newest `updatedAt` first (then id descending), filtered by `query`. */
  list(query: SourceQuery): Promise<Paged<Source>>
}
