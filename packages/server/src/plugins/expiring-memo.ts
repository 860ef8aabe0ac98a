/**
 * Answers remembered for a while, at most `max` of them (the oldest goes first: a `Map`'s insertion
 * order), for the per-request lookups the auth hook would otherwise repeat (`known-brains.ts`,
 * `known-tokens.ts`). A lookup in flight when an entry is forgotten does not remember its answer: the
 * caller takes `generation` before asking and `remember` ignores an answer older than a forgetting.
 */
export class ExpiringMemo<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>()
  private forgotten = 0

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  /** The remembered answer for `key` while it is fresh, else undefined. */
  get(key: K): V | undefined {
    const hit = this.entries.get(key)
    return hit !== undefined && hit.until > this.now() ? hit.value : undefined
  }

  /** Counts forgettings: take it before asking, give it to `remember`. */
  get generation(): number {
    return this.forgotten
  }

  /** Remembers `value` for `key` unless something was forgotten since `generation` was read. */
  remember(key: K, value: V, generation: number): void {
    if (generation !== this.forgotten) return
    // Re-inserted at the end, so the first key iterated is the oldest.
    this.entries.delete(key)
    this.entries.set(key, { value, until: this.now() + this.ttlMs })
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!)
  }

  /** Forgets `key`, or every entry without one. */
  forget(key?: K): void {
    this.forgotten++
    if (key === undefined) this.entries.clear()
    else this.entries.delete(key)
  }
}
