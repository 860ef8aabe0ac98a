import type { ChangelogEntry } from '../model/changelog-entry.js'
import type { Page, Paged } from './storage-page.js'

export interface ChangelogQuery extends Page {
  /** Any-match on the entry's `type`. */
  types?: string[]
  /** Case-insensitive substring of the JSON of the change. */
  queryText?: string
}

/**
 * A brain's changelog (one entry per graph write). Appended only through `BrainStore.apply`, which
 * gives each entry the next per-brain `seq`.
 */
export interface ChangelogRepository {
  /** One entry, or null when the id is unknown. */
  get(id: string): Promise<ChangelogEntry | null>
  /** Newest first (`seq` descending), filtered by `query`. */
  list(query: ChangelogQuery): Promise<Paged<ChangelogEntry>>
  /** Distinct entry types, sorted. */
  types(): Promise<string[]>
  /** Entries with `seq` greater than `afterSeq`, oldest first, at most `limit` (the change stream). */
  since(afterSeq: number, limit: number): Promise<ChangelogEntry[]>
  /** The highest `seq` written, 0 for an empty changelog. */
  lastSeq(): Promise<number>
  /**
   * Entries whose stored JSON contains any of `needles` (record ids), any order: what forgetting
   * redacts. May scan the whole changelog; at most 100 needles per call.
   */
  containing(needles: string[]): Promise<ChangelogEntry[]>
}
