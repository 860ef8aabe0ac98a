import { sessionOf, sourceIdOf, type Passage } from '../model/passage.js'

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
  }

  /** Takes a passage out of its sequences (forgotten); false when it was not there. */
  remove(id: string): boolean {
    const keys = this.keysOf.get(id)
    if (keys === undefined) return false
    for (const key of keys) {
      const list = this.sequences.get(key)!
      const i = list.findIndex((e) => e.id === id)
      if (i >= 0) list.splice(i, 1)
      if (list.length === 0) this.sequences.delete(key)
    }
    this.keysOf.delete(id)
    return true
  }

  /** The passages just before and after `id` in each of its sequences (none for an unknown id). */
  neighbours(id: string): string[] {
    const out = new Set<string>()
    for (const key of this.keysOf.get(id) ?? []) {
      const list = this.sequences.get(key)!
      const i = list.findIndex((e) => e.id === id)
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
