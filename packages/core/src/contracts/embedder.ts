/**
 * Turns texts into L2-normalised vectors (DESIGN.md section 6). One instance serves ingestion (passages,
 * entities) and search (the query); its `name` and `dimension` are recorded per brain and a mismatch is
 * refused, so two models never mix in one index.
 */
export interface Embedder {
  readonly kind: 'embedder'
  /** Stable identity recorded per brain, e.g. `use-lite`, `openai:text-embedding-3-small`. */
  readonly name: string
  readonly dimension: number
  /** One vector per text, same order, each of length `dimension` and unit norm. */
  embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]>
  /** Releases worker threads or connections; the embedder is unusable afterwards. */
  close?(): Promise<void>
}
