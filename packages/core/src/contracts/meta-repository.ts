/** Small per-brain settings (embedder name and dimension, index versions, ...), as strings. */
export interface MetaRepository {
  /** The value of `key`, or null when it was never set. */
  get(key: string): Promise<string | null>
  /** Sets `key`, outside any batch (settings are not part of a write's transaction). */
  set(key: string, value: string): Promise<void>
}
