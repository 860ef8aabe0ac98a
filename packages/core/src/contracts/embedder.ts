import type { FusionCalibration } from './search-plugins.js'

/** Who waits for an embedding: `interactive` (a query, a synchronous write) or `bulk` (ingestion). */
export type EmbedPriority = 'interactive' | 'bulk'

/**
 * What a call is for. An embedder may ignore it; a shared embedder wrapped by `scheduledEmbedder` uses
 * it to serve brains in turn and people before ingestion (CONTRACT.md section 1, fairness).
 */
export interface EmbedOptions {
  /** The brain the texts belong to. */
  readonly brainId?: string
  /** Default `bulk`. */
  readonly priority?: EmbedPriority
}

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
  /**
   * Weights of the default score fusion (`cc`) for this model's dense scores against BM25, when its
   * maker calibrated them; without it, the engine's table by `name`, else a neutral default
   * (docs/search-fusion.md).
   */
  readonly fusion?: FusionCalibration
  /**
   * One vector per text, same order, each of length `dimension` and unit norm. Texts longer than the
   * model's input are truncated as the model defines it (its token limit), never refused.
   */
  embed(texts: string[], signal: AbortSignal, options?: EmbedOptions): Promise<Float32Array[]>
  /**
   * Drops whatever the embedder keeps about these texts (a vector cache keyed by their hash): called
   * when they are forgotten (docs/forgetting.md). Absent: the embedder keeps nothing.
   */
  forget?(texts: string[]): void
  /** Releases worker threads or connections; the embedder is unusable afterwards. */
  close?(): Promise<void>
}
