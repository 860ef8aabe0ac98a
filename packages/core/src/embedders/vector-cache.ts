import { digestText } from '../digest.js'

/**
 * A bounded LRU of vectors keyed by the SHA-256 of the text, so repeated passages, entity names and queries
 * are embedded once. LRU by re-insertion into a `Map`, whose iteration order is insertion order (ECMA-262
 * 24.1.3.5), so the first key is always the least recently used.
 */
export class VectorCache {
  readonly #entries = new Map<string, Float32Array>()

  /** @param maxEntries at most this many vectors are kept; 0 disables the cache. */
  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size
  }

  /**
   * One vector per text, in order: cached ones are copied out, the others come from `compute` (called once
   * with the distinct uncached texts, or not at all) and are stored. Copies keep callers from mutating the cache.
   */
  async through(
    texts: readonly string[],
    compute: (missing: string[]) => Promise<Float32Array[]>,
  ): Promise<Float32Array[]> {
    const keys = texts.map(contentKey)
    const found = new Map<string, Float32Array>()
    const missing = new Map<string, string>()
    keys.forEach((key, i) => {
      const hit = this.#get(key)
      if (hit !== undefined) found.set(key, hit)
      else if (!missing.has(key)) missing.set(key, texts[i]!)
    })
    if (missing.size > 0) {
      const vectors = await compute([...missing.values()])
      let i = 0
      for (const key of missing.keys()) {
        const vector = vectors[i++]!
        found.set(key, vector)
        this.#set(key, vector)
      }
    }
    return keys.map((key) => found.get(key)!.slice())
  }

  /** Drops the vectors of these texts (forgotten content, docs/forgetting.md). */
  forget(texts: readonly string[]): void {
    for (const text of texts) this.#entries.delete(contentKey(text))
  }

  #get(key: string): Float32Array | undefined {
    const hit = this.#entries.get(key)
    if (hit !== undefined) {
      this.#entries.delete(key)
      this.#entries.set(key, hit)
    }
    return hit
  }

  #set(key: string, vector: Float32Array): void {
    if (this.maxEntries <= 0) return
    this.#entries.delete(key)
    this.#entries.set(key, vector)
    while (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!)
    }
  }
}

function contentKey(text: string): string {
  return digestText('sha256', text, 'base64')
}
