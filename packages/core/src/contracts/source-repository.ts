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
  /**
   * Active sources whose `expiresAt` is at or before `now` (ISO 8601 UTC, compared as text: every
   * stored `expiresAt` is `Date.toISOString()` of a year 0000..9999), soonest first, then id; at most
   * `limit`. Served by an index, not a scan of every source. Sources whose forget is under way are
   * returned until it commits.
   */
  expired(now: string, limit: number): Promise<Source[]>
}
