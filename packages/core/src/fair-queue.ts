/**
 * Items in one FIFO lane per key (a brain id), taken in turn across the keys: round robin, which keeps
 * one tenant's backlog from delaying another's next item by more than one turn per busy key (Nagle,
 * "On packet switches with infinite storage", 1987: a queue per source, served in rotation). A new key
 * joins the end of the rotation; a served key goes to the end. Used wherever brains share a resource:
 * the task queue's workers, the embedder, the extractor.
 */
export class FairQueue<T> {
  /** Lanes in rotation order: the first is served next. Only keys with items waiting are here. */
  readonly #lanes = new Map<string, T[]>()
  #size = 0

  get size(): number {
    return this.#size
  }

  /** Items waiting under `key`. */
  sizeOf(key: string): number {
    return this.#lanes.get(key)?.length ?? 0
  }

  /** Keys with items waiting, in the order they will be served. */
  keys(): string[] {
    return [...this.#lanes.keys()]
  }

  push(key: string, item: T): void {
    const lane = this.#lanes.get(key)
    if (lane === undefined) this.#lanes.set(key, [item])
    else lane.push(item)
    this.#size++
  }

  /**
   * The oldest item of the next key in turn, skipping keys `accept` refuses (they keep their place);
   * undefined when none is left.
   */
  shift(accept: (key: string) => boolean = () => true): T | undefined {
    for (const [key, lane] of this.#lanes) {
      if (!accept(key)) continue
      const item = lane.shift()!
      this.#size--
      this.#lanes.delete(key)
      if (lane.length > 0) this.#lanes.set(key, lane)
      return item
    }
    return undefined
  }

  /**
   * The item `shift()` would give, taken only if `fits(item)`; otherwise undefined and nothing changes.
   * For a consumer that batches items while they fit, in turn.
   */
  shiftIf(fits: (item: T) => boolean): T | undefined {
    for (const [key, lane] of this.#lanes) {
      if (!fits(lane[0]!)) return undefined
      return this.shift((k) => k === key)
    }
    return undefined
  }

  /** Removes the items `match` selects; returns how many. */
  remove(match: (item: T, key: string) => boolean): number {
    let removed = 0
    for (const [key, lane] of [...this.#lanes]) {
      const kept = lane.filter((item) => !match(item, key))
      if (kept.length === lane.length) continue
      removed += lane.length - kept.length
      if (kept.length === 0) this.#lanes.delete(key)
      else this.#lanes.set(key, kept)
    }
    this.#size -= removed
    return removed
  }

  /** Empties the queue; returns what it held. */
  clear(): T[] {
    const held = [...this.#lanes.values()].flatMap((lane) => [...lane])
    this.#lanes.clear()
    this.#size = 0
    return held
  }
}
