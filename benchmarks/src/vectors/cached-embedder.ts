import type { Embedder } from '@engram/core'
import type { DiskVectorCache } from './disk-vector-cache.js'

/** Texts embedded per call to the wrapped embedder; each chunk is on disk before the next starts. */
export const EMBED_CHUNK = 256

export interface CachedEmbedder extends Embedder {
  /** Texts answered from the cache and texts the wrapped embedder computed, since creation. */
  readonly counts: { readonly hits: number; readonly misses: number }
}

export interface CachedEmbedderOptions {
  /** Texts per call to the wrapped embedder (default {@link EMBED_CHUNK}). */
  readonly chunk?: number
}

/**
 * The name a model's vectors are cached under: the embedder's name, with use-lite's precision when it is
 * not the float model (`use-lite:int8`), so vectors of one arithmetic are never served for the other's.
 */
export function vectorCacheName(embedder: Embedder & { readonly precision?: string }): string {
  return embedder.precision === undefined || embedder.precision === 'fp32'
    ? embedder.name
    : `${embedder.name}:${embedder.precision}`
}

/**
 * An {@link Embedder} that answers from a {@link DiskVectorCache} and sends only the misses to the wrapped
 * embedder, in chunks written to disk as they come (an interrupted run keeps what it embedded). It has the
 * wrapped embedder's name and dimension, so the engine records and checks the real model; nothing is
 * synthesised: a vector is either one the model returned for this exact text, or it is computed now.
 */
export function cachedEmbedder(
  inner: Embedder,
  cache: DiskVectorCache,
  options: CachedEmbedderOptions = {},
): CachedEmbedder {
  if (cache.embedder !== vectorCacheName(inner) || cache.dimension !== inner.dimension)
    throw new Error(
      `vector cache of ${cache.embedder} (${cache.dimension}-d) cannot serve ${vectorCacheName(inner)} (${inner.dimension}-d)`,
    )
  const chunk = Math.max(1, options.chunk ?? EMBED_CHUNK)
  const counts = { hits: 0, misses: 0 }
  return {
    kind: 'embedder',
    name: inner.name,
    dimension: inner.dimension,
    counts,
    async embed(texts, signal) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))]
      counts.misses += missing.length
      counts.hits += texts.length - missing.length
      for (let i = 0; i < missing.length; i += chunk) {
        signal.throwIfAborted()
        const batch = missing.slice(i, i + chunk)
        const vectors = await inner.embed(batch, signal)
        if (vectors.length !== batch.length)
          throw new Error(
            `${inner.name} returned ${vectors.length} vectors for ${batch.length} texts`,
          )
        cache.put(batch, vectors)
      }
      return texts.map((t) => cache.get(t)!)
    },
    close: async () => inner.close?.(),
  }
}
