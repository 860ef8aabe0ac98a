import { sessionOf, sourceIdOf, type Passage } from '../model/passage.js'
import { arrayPart, stringsPart, type SnapshotParts } from './snapshot-codec.js'
import { runWhole, SLICE_ITEMS, type Sliced } from './sliced-work.js'

interface Entry {
  readonly id: string
  readonly at: number
  readonly position: number
}

const before = (a: Entry, b: Entry) =>
  a.at - b.at || a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * Passages in reading order within what they were written in: the chunks of one source (same
 * `sourceId`, by `position`) and the passages of one conversation session (same `session_id` or
 * `session` metadata value, by when they were written, then position). A passage's neighbours are the
 * passages just before and after it in each of its sequences: the turns around a conversation turn, the
 * chunks around a chunk. Memory questions are often answered by a turn and its reply, which share few
 * words (LoCoMo dev ablation in benchmarks/LOG.md); the graph walk stage lends a passage part of the score
 * of its neighbours.
 */
export class PassageSequence {
  private readonly sequences = new Map<string, Entry[]>()
  private readonly keysOf = new Map<string, string[]>()
  /** Each passage's entry, to find it in its (sorted) sequences by binary search. */
  private readonly entryOf = new Map<string, Entry>()

  get size(): number {
    return this.keysOf.size
  }

  /** Adds a passage, or moves it when it is there (a re-ingested source's passages change position). */
  add(
    p: Pick<Passage, 'id' | 'source' | 'sourceId' | 'position' | 'insertedAt' | 'metadata'>,
  ): void {
    if (this.keysOf.has(p.id)) this.remove(p.id)
    const keys: string[] = []
    const source = sourceIdOf(p)
    if (source !== null) keys.push(`source\u0000${source}`)
    const session = sessionOf(p.metadata)
    if (session !== null) keys.push(`session\u0000${session}`)
    const entry: Entry = { id: p.id, at: Date.parse(p.insertedAt) || 0, position: p.position }
    for (const key of keys) {
      let list = this.sequences.get(key)
      if (list === undefined) this.sequences.set(key, (list = []))
      // Passages mostly arrive in order: search from the end.
      let i = list.length
      while (i > 0 && before(entry, list[i - 1]!) < 0) i--
      list.splice(i, 0, entry)
    }
    this.keysOf.set(p.id, keys)
    this.entryOf.set(p.id, entry)
  }

  /** Where `id`'s entry is in sequence `key` (binary search: the lists are sorted by `before`). */
  private indexIn(list: readonly Entry[], id: string): number {
    const entry = this.entryOf.get(id)
    if (entry === undefined) return -1
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

  /** Takes a passage out of its sequences (forgotten); false when it was not there. */
  remove(id: string): boolean {
    const keys = this.keysOf.get(id)
    if (keys === undefined) return false
    for (const key of keys) {
      const list = this.sequences.get(key)!
      const i = this.indexIn(list, id)
      if (i >= 0) list.splice(i, 1)
      if (list.length === 0) this.sequences.delete(key)
    }
    this.keysOf.delete(id)
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
    const count = [...this.sequences.values()].reduce((n, list) => n + list.length, 0)
    const at = new Float64Array(count)
    const position = new Float64Array(count)
    let i = 0
    for (const [key, list] of this.sequences) {
      lengths[keys.length] = list.length
      keys.push(key)
      for (const entry of list) {
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
      for (let j = 0; j < list.length; j++, i++) {
        const id = ids[i]!
        const entry = { id, at: at[i]!, position: position[i]! }
        list[j] = entry
        sequence.entryOf.set(id, entry)
        const known = sequence.keysOf.get(id)
        if (known === undefined) sequence.keysOf.set(id, [key])
        else known.push(key)
      }
      sequence.sequences.set(key, list)
      sinceYield += list.length + 1
      if (sinceYield >= SLICE_ITEMS) {
        sinceYield = 0
        yield
      }
    }
    // As `add` orders them: the source's sequence, then the session's.
    for (const known of sequence.keysOf.values())
      if (known.length > 1)
        known.sort((a, b) => Number(b.startsWith('source')) - Number(a.startsWith('source')))
    return sequence
  }

  /** The passages just before and after `id` in each of its sequences (none for an unknown id). */
  neighbours(id: string): string[] {
    const keys = this.keysOf.get(id)
    if (keys === undefined || keys.length === 0) return []
    const out = new Set<string>()
    for (const key of keys) {
      const list = this.sequences.get(key)!
      const i = this.indexIn(list, id)
      if (i > 0) out.add(list[i - 1]!.id)
      if (i >= 0 && i < list.length - 1) out.add(list[i + 1]!.id)
    }
    return [...out]
  }
}

/** `neighbours` of each id that has any. */
export function sequenceNeighbours(
  sequence: PassageSequence,
  ids: readonly string[],
): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const id of ids) {
    const n = sequence.neighbours(id)
    if (n.length > 0) out.set(id, n)
  }
  return out
}
