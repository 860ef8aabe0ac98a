import type { Changelog } from '@engram/client'

/** The changelog entries of one write: an ingestion's or a forget's batch, or direct graph writes. */
export interface ChangelogBatch {
  /** Stable across reloads: the marker's id, else the newest entry's. */
  key: string
  kind: 'ingestion' | 'forget' | 'writes'
  taskId: string | null
  sourceId: string | null
  /** The batch's `source_ingested` / `source_forgotten` entry (ids and counts), when it has one. */
  marker: Changelog | null
  /** The other entries, newest first. */
  entries: Changelog[]
  newest: string
  oldest: string
}

/** Entry types that close a batch and name its task and source. */
const MARKERS: Record<string, ChangelogBatch['kind']> = {
  source_ingested: 'ingestion',
  source_forgotten: 'forget',
}

/** Entries further apart than this are not one write. */
export const BATCH_GAP_MS = 2_000

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)

/**
 * Groups a newest-first changelog page into write batches. An ingestion or a forget writes its entries
 * and, last, a marker (`source_ingested`, `source_forgotten`) that names its task and source, all in
 * one transaction (packages/core/src/sources/): so, newest first, a marker opens a batch. A marker that
 * says how many entries its batch wrote before it (`change.entries`) takes exactly that many of the
 * entries after it, when the list is `complete` (every type, so those are its batch's); otherwise (a
 * type filter, or a marker of an older server) the entries after it belong to it while they follow
 * each other within `BATCH_GAP_MS`. Entries with no marker before them (direct `/model/*` writes, or
 * a marker left out by paging) group by the same gap.
 */
export function changelogBatches(
  entries: readonly Changelog[],
  gapMs = BATCH_GAP_MS,
  complete = true,
): ChangelogBatch[] {
  const batches: ChangelogBatch[] = []
  let open: ChangelogBatch | null = null
  let last = Number.NaN
  /** Entries the open batch's marker still counts as its own (null: group by the gap). */
  let owed: number | null = null
  for (const entry of entries) {
    const at = Date.parse(entry.timestamp)
    const kind = MARKERS[entry.type]
    if (kind === undefined && open !== null && owed !== null && owed > 0) {
      open.entries.push(entry)
      open.oldest = entry.timestamp
      owed--
    } else if (kind !== undefined) {
      const counted = entry.change.entries
      owed = complete && typeof counted === 'number' ? counted : null
      open = {
        key: entry.id,
        kind,
        taskId: text(entry.change.task_id),
        sourceId: text(entry.change.source_id),
        marker: entry,
        entries: [],
        newest: entry.timestamp,
        oldest: entry.timestamp,
      }
      batches.push(open)
    } else if (open !== null && owed === null && Math.abs(last - at) <= gapMs) {
      open.entries.push(entry)
      open.oldest = entry.timestamp
    } else {
      owed = null
      open = {
        key: entry.id,
        kind: 'writes',
        taskId: null,
        sourceId: null,
        marker: null,
        entries: [entry],
        newest: entry.timestamp,
        oldest: entry.timestamp,
      }
      batches.push(open)
    }
    last = at
  }
  return batches
}

/** How many entries of each type a batch holds, most first: `[['node_created', 12], …]`. */
export function typeCounts(batch: Pick<ChangelogBatch, 'entries'>): [string, number][] {
  const counts = new Map<string, number>()
  for (const e of batch.entries) counts.set(e.type, (counts.get(e.type) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
}
