/**
 * Sizes by key, in least-recently-used order, with their running total: a `Map` whose insertion order
 * is the order of use (a touch re-inserts the key), so every operation is O(1) and the oldest key is
 * the first one iterated.
 */
export class LruSizes<K> {
  private readonly sizes = new Map<K, number>()
  private sum = 0

  /** Sum of every size. */
  get total(): number {
    return this.sum
  }

  /** Keys held. */
  get size(): number {
    return this.sizes.size
  }

  has(key: K): boolean {
    return this.sizes.has(key)
  }

  get(key: K): number | undefined {
    return this.sizes.get(key)
  }

  /** Sets the size of `key`; a new key is the most recently used, a known one keeps its place. */
  set(key: K, bytes: number): void {
    this.sum += bytes - (this.sizes.get(key) ?? 0)
    this.sizes.set(key, bytes)
  }

  /** Makes `key` the most recently used; no-op for an unknown key. */
  touch(key: K): void {
    const bytes = this.sizes.get(key)
    if (bytes === undefined) return
    this.sizes.delete(key)
    this.sizes.set(key, bytes)
  }

  delete(key: K): boolean {
    const bytes = this.sizes.get(key)
    if (bytes === undefined) return false
    this.sizes.delete(key)
    this.sum -= bytes
    return true
  }

  /** Keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.sizes.keys()
  }
}
