import type { SequenceKind } from '../contracts/search-plugins.js'
import { sessionOf, sourceIdOf, type Passage } from '../model/passage.js'
import { arrayPart, stringsPart, type SnapshotParts } from './snapshot-codec.js'
import { runWhole, SLICE_ITEMS, type Sliced } from './sliced-work.js'
import { INDEX_BYTES } from './index-bytes.js'

/** One sequence: a source's chunks or a session's turns, in reading order (`before`). */
interface Sequence {
  readonly key: string
  readonly entries: Entry[]
}

/**
 * A passage in its sequences, held by reference (they were key strings per passage in three maps
 * before: 458-687 bytes per passage against 210-522 now, 100,000 synthetic passages, index-bytes.ts).
 */
interface Entry {
  readonly id: string
  readonly at: number
  readonly position: number
  /** The source's sequence and the session's, when the passage has them. */
  source: Sequence | null
  session: Sequence | null
}

const before = (a: Entry, b: Entry) =>
  a.at - b.at || a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const SOURCE = 'source\u0000'
const SESSION = 'session\u0000'

/** Where `entry` is in `list` (binary search: the lists are sorted by `before`); -1 when absent. */
function indexIn(list: readonly Entry[], entry: Entry): number {
  let lo = 0
  let hi = list.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const order = before(list[mid]!, entry)
    if (order === 0) return mid
    if (order < 0) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

/**
 * Passages in reading order within what they were written in: the chunks of one source (same
 * `sourceId`, by `position`) and the passages of one conversation session (same `session_id` or
 * `session` metadata value, by when they were written, then position). A passage's neighbours are the
 * passages just before and after it in each of its sequences: the turns around a conversation turn, the
 * chunks around a chunk. Memory questions are often answered by a turn and its reply, which share few
 * words (LoCoMo dev ablation in benchmarks/LOG.md); the graph walk stage lends a passage part of the score
 * of its session neighbours (not of the chunks around it: see `GraphWalkSettings.sequenceWeight`).
 */
export class PassageSequence {
  private readonly sequences = new Map<string, Sequence>()
  /** Each passage's entry, to find it in its (sorted) sequences by binary search. */
  private readonly entryOf = new Map<string, Entry>()

  get size(): number {
    return this.entryOf.size
  }

  /** Estimated bytes held (`index-bytes.ts`): O(1). */
  bytes(): number {
    return (
      this.entryOf.size * INDEX_BYTES.sequence.passage +
      this.sequences.size * INDEX_BYTES.sequence.sequence
    )
  }

  /** Adds a passage, or moves it when it is there (a re-ingested source's passages change position). */
  add(
    p: Pick<Passage, 'id' | 'source' | 'sourceId' | 'position' | 'insertedAt' | 'metadata'>,
  ): void {
    if (this.entryOf.has(p.id)) this.remove(p.id)
    const entry: Entry = {
      id: p.id,
      at: Date.parse(p.insertedAt) || 0,
      position: p.position,
      source: null,
      session: null,
    }
    const source = sourceIdOf(p)
    if (source !== null) entry.source = this.insert(SOURCE + source, entry)
    const session = sessionOf(p.metadata)
    if (session !== null) entry.session = this.insert(SESSION + session, entry)
    this.entryOf.set(p.id, entry)
  }

  /** Puts `entry` in its place in sequence `key` (created when new); returns the sequence. */
  private insert(key: string, entry: Entry): Sequence {
    let sequence = this.sequences.get(key)
    if (sequence === undefined) this.sequences.set(key, (sequence = { key, entries: [] }))
    const list = sequence.entries
    // Passages mostly arrive in order: search from the end.
    let i = list.length
    while (i > 0 && before(entry, list[i - 1]!) < 0) i--
    list.splice(i, 0, entry)
    return sequence
  }

  /** Takes a passage out of its sequences (forgotten); false when it was not there. */
  remove(id: string): boolean {
    const entry = this.entryOf.get(id)
    if (entry === undefined) return false
    for (const sequence of [entry.source, entry.session]) {
      if (sequence === null) continue
      const i = indexIn(sequence.entries, entry)
      if (i >= 0) sequence.entries.splice(i, 1)
      if (sequence.entries.length === 0) this.sequences.delete(sequence.key)
    }
    this.entryOf.delete(id)
    return true
  }

  /**
   * The sequences as snapshot parts (`snapshot-codec.ts`): the keys, each sequence's length, and the
   * entries of all sequences one after the other (ids, times, positions).
   */
  toParts(): SnapshotParts {
    const keys: string[] = []
    const ids: string[] = []
    const lengths = new Uint32Array(this.sequences.size)
    const count = [...this.sequences.values()].reduce((n, seq) => n + seq.entries.length, 0)
    const at = new Float64Array(count)
    const position = new Float64Array(count)
    let i = 0
    for (const [key, { entries }] of this.sequences) {
      lengths[keys.length] = entries.length
      keys.push(key)
      for (const entry of entries) {
        ids.push(entry.id)
        at[i] = entry.at
        position[i++] = entry.position
      }
    }
    return { json: {}, arrays: { lengths, at, position }, strings: { keys, ids } }
  }

  /** The sequences `toParts` described; throws on parts that do not fit together. */
  static fromParts(parts: SnapshotParts): PassageSequence {
    return runWhole(PassageSequence.restore(parts))
  }

  /**
   * `fromParts` as work a snapshot load runs in slices (`sliced-work.ts`): a yield every
   * `SLICE_ITEMS` passages, so a brain of 100,000 passages does not stop the event loop while its
   * sequences are rebuilt. The sequence is handed over only once complete.
   */
  static *restore(parts: SnapshotParts): Sliced<PassageSequence> {
    const sequence = new PassageSequence()
    const keys = stringsPart(parts, 'keys')
    const ids = stringsPart(parts, 'ids')
    const lengths = arrayPart(parts, 'lengths', Uint32Array)
    const at = arrayPart(parts, 'at', Float64Array)
    const position = arrayPart(parts, 'position', Float64Array)
    if (
      lengths.length !== keys.length ||
      at.length !== ids.length ||
      position.length !== ids.length ||
      lengths.reduce((n, length) => n + length, 0) !== ids.length
    )
      throw new Error('passage sequence snapshot parts disagree')
    let i = 0
    let sinceYield = 0
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!
      const list: Entry[] = new Array(lengths[k]!)
      const seq: Sequence = { key, entries: list }
      const isSource = key.startsWith(SOURCE)
      for (let j = 0; j < list.length; j++, i++) {
        const id = ids[i]!
        // A passage in two sequences has one entry (the same time and position in both).
        let entry = sequence.entryOf.get(id)
        if (entry === undefined) {
          entry = { id, at: at[i]!, position: position[i]!, source: null, session: null }
          sequence.entryOf.set(id, entry)
        }
        if (isSource) entry.source = seq
        else entry.session = seq
        list[j] = entry
      }
      sequence.sequences.set(key, seq)
      sinceYield += list.length + 1
      if (sinceYield >= SLICE_ITEMS) {
        sinceYield = 0
        yield
      }
    }
    return sequence
  }

  /**
   * The passages just before and after `id` in each of its sequences, or in its session only with
   * `within: 'session'` (none for an unknown id).
   */
  neighbours(id: string, within: SequenceKind = 'any'): string[] {
    const entry = this.entryOf.get(id)
    if (entry === undefined) return []
    const out: string[] = []
    for (const sequence of within === 'session' ? [entry.session] : [entry.source, entry.session]) {
      if (sequence === null) continue
      const list = sequence.entries
      const i = indexIn(list, entry)
      if (i > 0 && !out.includes(list[i - 1]!.id)) out.push(list[i - 1]!.id)
      if (i >= 0 && i < list.length - 1 && !out.includes(list[i + 1]!.id)) out.push(list[i + 1]!.id)
    }
    return out
  }
}

/** `neighbours` of each id that has any. */
export function sequenceNeighbours(
  sequence: PassageSequence,
  ids: readonly string[],
  within: SequenceKind = 'any',
): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const id of ids) {
    const n = sequence.neighbours(id, within)
    if (n.length > 0) out.set(id, n)
  }
  return out
}
