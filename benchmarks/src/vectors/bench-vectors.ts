import { performance } from 'node:perf_hooks'
import { join } from 'node:path'
import { useLiteEmbedder, type Embedder } from '@engram/core'
import {
  cachedEmbedder,
  EMBED_CHUNK,
  vectorCacheName,
  type CachedEmbedder,
} from './cached-embedder.js'
import { DiskVectorCache } from './disk-vector-cache.js'

/** Config `engine.embedder` values the harness can serve: the engine's default embedder, use-lite. */
const HARNESS_EMBEDDERS: readonly string[] = ['default', 'use-lite']

/** Why the harness cannot serve a config's `engine.embedder`, or null when it can. */
export function harnessEmbedderMissing(embedder: string | null | undefined): string | null {
  return embedder && HARNESS_EMBEDDERS.includes(embedder)
    ? null
    : `embedder '${embedder}': the harness embeds with use-lite (engine.embedder: default)`
}

/** What the embedding step of one config run did; saved with the result. */
export interface EmbeddingSummary {
  /** The vectors' name: the model's, with its precision when not float (`vectorCacheName`). */
  readonly embedder: string
  readonly dimension: number
  /** Distinct texts (documents and queries) the run needs vectors for. */
  readonly texts: number
  /** Of those, found in the on-disk cache. */
  readonly cached: number
  /** Of those, embedded by the model in this run. */
  readonly embedded: number
  readonly ms: number
}

/**
 * The vectors of one benchmark invocation: a single embedder behind the on-disk cache, shared by every
 * Engram vector condition and vector peer so they all see the same document and query vectors. Lazy: a run
 * that uses no vectors never opens the cache or starts the model's workers.
 */
export interface BenchVectors {
  /** The cached embedder (the model's name and dimension). */
  embedder(): CachedEmbedder
  /**
   * Makes sure every text has a vector on disk, embedding the misses (progress logged), so that the
   * systems' own index and query phases are cache hits and their timings do not include the model.
   */
  prepare(texts: readonly string[], log: (line: string) => void): Promise<EmbeddingSummary>
  close(): Promise<void>
}

export interface BenchVectorsOptions {
  /** Folder of the cache files (`benchmarks/.cache/vectors` under the CLI). */
  readonly cacheDir: string
  /** The model; default the engine's default embedder, `useLiteEmbedder()` (512-d, two worker threads). */
  readonly create?: () => Embedder
  /** Texts per progress line while embedding (default {@link EMBED_CHUNK}). */
  readonly chunk?: number
}

export function benchVectors(options: BenchVectorsOptions): BenchVectors {
  let inner: Embedder | undefined
  let cached: CachedEmbedder | undefined
  const chunk = Math.max(1, options.chunk ?? EMBED_CHUNK)
  const embedder = (): CachedEmbedder => {
    if (cached === undefined) {
      inner = (options.create ?? (() => useLiteEmbedder()))()
      const cache = DiskVectorCache.open(options.cacheDir, vectorCacheName(inner), inner.dimension)
      cached = cachedEmbedder(inner, cache, { chunk })
    }
    return cached
  }
  return {
    embedder,
    async prepare(texts, log) {
      const e = embedder()
      const distinct = [...new Set(texts)]
      const before = e.counts.misses
      const t0 = performance.now()
      // A generous bound: SciFact's 5,183 documents take minutes on two shared cores.
      const signal = AbortSignal.timeout(2 * 60 * 60_000)
      let missing = 0
      for (let i = 0; i < distinct.length; i += chunk) {
        await e.embed(distinct.slice(i, i + chunk), signal)
        const now = e.counts.misses - before
        if (now > missing) {
          missing = now
          const s = (performance.now() - t0) / 1000
          log(`  embedded ${now} texts with ${e.name} (${(now / s).toFixed(1)}/s)`)
        }
      }
      const ms = performance.now() - t0
      const summary: EmbeddingSummary = {
        // The vectors' name (`use-lite:int8`): what the cache and the reports name them by.
        embedder: vectorCacheName(inner!),
        dimension: e.dimension,
        texts: distinct.length,
        cached: distinct.length - missing,
        embedded: missing,
        ms,
      }
      log(
        `vectors (${summary.embedder}, ${e.dimension}-d): ${summary.texts} texts, ${summary.cached} from the cache, ` +
          `${summary.embedded} embedded, ${(ms / 1000).toFixed(1)} s`,
      )
      return summary
    },
    async close() {
      await inner?.close?.()
    },
  }
}

/** The cache folder for vectors under a benchmarks `.cache` folder. */
export const vectorCacheDir = (cacheRoot: string) => join(cacheRoot, 'vectors')

/** Vectors for a context that has none (the scale curve's synthetic text): every use throws `reason`. */
export function unavailableVectors(reason: string): BenchVectors {
  const refuse = (): never => {
    throw new Error(`no document vectors here: ${reason}`)
  }
  return { embedder: refuse, prepare: async () => refuse(), close: async () => {} }
}
