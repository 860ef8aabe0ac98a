import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { FeedEntry, WriteFeed, WriteSummary } from '../contracts/coordination.js'
import { digestText } from '../digest.js'
import type { BrainRecord } from '../model/brain-record.js'
import {
  parseSnapshotMeta,
  snapshotIdOf,
  type SnapshotMeta,
  type SnapshotPart,
} from './snapshot-meta.js'
import { fsyncDir, writeFileDurably } from './vectors/vector-snapshot.js'

/**
 * Index snapshots of a brain several processes share (an adapter with `coordination`, PostgreSQL):
 * each process keeps its own in a local directory, so the brain's `meta` (shared by every process)
 * cannot say which are valid. A local manifest does instead, validated against the brain's write
 * feed (`WriteFeed`): each part is labelled with the feed seq its index reflected when it was read
 * (every entry up to it applied), and with the brain's incarnation. A snapshot at seq S is as good
 * as the stored records once the entries after S are applied to it, read back from storage as the
 * write follower does (`batchFromSummary`), which upserts make idempotent; so a load needs every
 * entry after S still in the feed (none pruned), and the same incarnation (a brain deleted and
 * created again under the same id restarts its numbering at 1).
 *
 * Source: the snapshot-plus-log recovery of replicated state machines (Ongaro & Ousterhout, "In
 * Search of an Understandable Consensus Algorithm", USENIX ATC 2014, section 7: a snapshot records
 * the last log index it includes; a server restores it and applies the entries after). The manifest
 * is replaced by rename(2), atomic on POSIX file systems, after an fsync of the new file.
 */
export const FEED_MANIFEST = 'snapshots.json'

export interface FeedManifest {
  format: 1
  /** `incarnationOf` the brain whose indexes the parts were read from. */
  incarnation: string
  /** Per part named in `meta`: the feed seq its snapshot reflects. */
  seqs: Partial<Record<SnapshotPart, number>>
  /** The parts and their snapshot ids, as the brain meta of a single-process store names them. */
  meta: SnapshotMeta
}

/**
 * Entries a load applies at most on top of a snapshot: beyond, rebuilding from storage is likely
 * faster. Measured on the 2-core reference machine (benchmarks/results/startup-postgres.md): 1,000
 * entries of 5 passages with 512-d vectors added ~14 s (their HNSW inserts) to a 100,000-passage
 * brain's 2.2 s start from its snapshots, whose rebuild took 228 s; without vectors, 1,000 entries
 * added 0.5 s to a 25,000-passage brain's load. Entries of large ingestions cost more each.
 */
export const MAX_FEED_TAIL = 5_000

const PAGE = 500

/**
 * What tells one life of a brain id from the next: its creation time (millisecond ISO time; the write
 * follower tells incarnations apart by the same column, `FeedHead.incarnation`). It once included the
 * token hash, so a token rotation made the next load rebuild every index (289 s for 100,000 passages
 * with vectors, docs/scaling-out.md); a manifest of that format is of no incarnation now: rebuilt once.
 */
export function incarnationOf(record: BrainRecord): string {
  return digestText('sha256', `brain-created\u0000${record.createdAt}`, 'hex').slice(0, 32)
}

/** The manifest in `dir`, or null when absent or unreadable in any way (a rebuild, never a wrong index). */
export async function readFeedManifest(dir: string): Promise<FeedManifest | null> {
  let raw: string
  try {
    raw = await readFile(join(dir, FEED_MANIFEST), 'utf8')
  } catch {
    return null
  }
  try {
    const value = JSON.parse(raw) as Partial<FeedManifest>
    if (value.format !== 1 || typeof value.incarnation !== 'string') return null
    if (typeof value.seqs !== 'object' || value.seqs === null) return null
    const meta = parseSnapshotMeta(JSON.stringify(value.meta ?? null))
    const seqs: FeedManifest['seqs'] = {}
    for (const [part, seq] of Object.entries(value.seqs as Record<string, unknown>)) {
      if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return null
      seqs[part as SnapshotPart] = seq
    }
    // Every part the meta names needs its label.
    for (const part of namedParts(meta)) if (seqs[part] === undefined) return null
    return { format: 1, incarnation: value.incarnation, seqs, meta }
  } catch {
    return null
  }
}

/** The parts `meta` names. */
export function namedParts(meta: SnapshotMeta): SnapshotPart[] {
  const parts = Object.keys(meta.vectors) as SnapshotPart[]
  for (const [key, value] of Object.entries(meta))
    if (key !== 'format' && key !== 'vectors' && typeof value === 'string')
      parts.push(key as SnapshotPart)
  return parts.filter((part) => snapshotIdOf(meta, part) !== undefined)
}

/** Writes the manifest under a temporary name, syncs it, renames it over the old one, syncs the directory. */
export async function writeFeedManifest(dir: string, manifest: FeedManifest): Promise<void> {
  await writeFileDurably(dir, FEED_MANIFEST, JSON.stringify(manifest))
}

/** Removes the manifest: no snapshot in `dir` is valid any more. */
export async function removeFeedManifest(dir: string): Promise<void> {
  await rm(join(dir, FEED_MANIFEST), { force: true })
  await fsyncDir(dir).catch(() => {})
}

/**
 * The brain's feed entries after `seq`, every one of them up to at least `head`, in order; null when
 * any is missing (pruned: the first entry is past `seq + 1`, or a hole between two), when `seq` is
 * past `head` (another incarnation's numbering), or when there are more than `MAX_FEED_TAIL`.
 */
export async function feedTail(
  feed: WriteFeed,
  brainId: string,
  seq: number,
  head: number,
): Promise<WriteSummary[] | null> {
  if (seq > head) return null
  const tail: WriteSummary[] = []
  let last = seq
  for (;;) {
    const entries: FeedEntry[] = await feed.since(brainId, last, PAGE)
    for (const entry of entries) {
      if (entry.seq !== last + 1) return null
      tail.push(entry.summary)
      last = entry.seq
    }
    if (tail.length > MAX_FEED_TAIL) return null
    if (entries.length < PAGE) break
  }
  return last >= head ? tail : null
}
