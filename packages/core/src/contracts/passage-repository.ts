import type { Passage } from '../model/passage.js'
import type { Page, Paged } from './storage-page.js'

export interface PassageQuery extends Page {
  /** Passages written by this task. */
  source?: string
  /** Passages of this source (docs/forgetting.md), in `position` order instead of newest first. */
  sourceId?: string
}

/** A brain's passages (chunks of ingested text). Written only through `BrainStore.apply`. */
export interface PassageRepository {
  /** The passages with these ids, in the order of `ids`; unknown ids are left out. */
  get(ids: string[]): Promise<Passage[]>
  /** Newest first (`insertedAt`, then id, descending), optionally only one task's. */
  list(query: PassageQuery): Promise<Paged<Passage>>
  /**
   * All passages in id order, in pages (for index rebuilds). `after` is the last id of the previous
   * page, null for the first.
   */
  scan(after: string | null, limit: number): Promise<Passage[]>
}
