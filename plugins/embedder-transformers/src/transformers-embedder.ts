import { resolve } from 'node:path'
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers'
import { EngramError, VectorCache, type Embedder } from '@engram/core'

export interface TransformersEmbedderOptions {
  /** A Hugging Face model id (`Xenova/all-MiniLM-L6-v2`) or, with `localDir`, a folder under it. */
  model: string
  /**
   * Folder holding models laid out as on the hub: `<localDir>/<model>/config.json`, `tokenizer.json`,
   * `tokenizer_config.json`, `onnx/model.onnx`. Default: transformers.js's own `env.localModelPath`.
   */
  localDir?: string
  /** Download from the hub when the files are not local. Default false: nothing leaves the machine. */
  allowRemote?: boolean
  /** How token vectors become one vector: mean over the attention mask (sentence-transformers) or [CLS]. */
  pooling?: 'mean' | 'cls'
  /** L2-normalise (the `Embedder` contract expects unit vectors; turn off only to experiment). Default true. */
  normalize?: boolean
  /** ONNX weights to load: `fp32` is `onnx/model.onnx`, `q8` is `onnx/model_quantized.onnx`. Default fp32. */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4'
  /** Texts per inference call. Default 32. */
  batchSize?: number
  /** Vectors kept in the content-hash LRU. Default 10,000; 0 disables it. */
  cacheSize?: number
}

/**
 * An embedder over an ONNX sentence-embedding model (all-MiniLM-L6-v2, bge-small, ...) run by
 * `@huggingface/transformers` (`pipeline('feature-extraction')`, onnxruntime-node on CPU). Async because it
 * loads the model to learn its dimension (`hidden_size` in config.json); a missing model fails here, at
 * start, with an EngramError that says where the files were looked for. Inference runs on onnxruntime's
 * own threads; tokenisation and pooling run on the calling thread.
 */
export async function transformersEmbedder(
  options: TransformersEmbedderOptions,
): Promise<Embedder> {
  const allowRemote = options.allowRemote ?? false
  const location =
    options.localDir === undefined ? options.model : resolve(options.localDir, options.model)
  const extractor = await load(location, options, allowRemote)
  const dimension = await dimensionOf(extractor)
  boundInput(extractor)
  const pooling = options.pooling ?? 'mean'
  const normalize = options.normalize ?? true
  const batchSize = Math.max(1, options.batchSize ?? 32)
  const cache = new VectorCache(options.cacheSize ?? 10_000)
  let closed = false

  async function run(texts: string[], signal: AbortSignal): Promise<Float32Array[]> {
    const vectors: Float32Array[] = []
    for (let i = 0; i < texts.length; i += batchSize) {
      signal.throwIfAborted()
      if (closed) {
        throw new EngramError('SERVICE_UNAVAILABLE', 'The transformers embedder is closed.')
      }
      const output = await extractor(texts.slice(i, i + batchSize), { pooling, normalize })
      const data = output.data as Float32Array
      const rows = output.dims[0]!
      for (let row = 0; row < rows; row++) {
        vectors.push(data.slice(row * dimension, (row + 1) * dimension))
      }
    }
    return vectors
  }

  return {
    kind: 'embedder',
    name: `transformers:${options.model}`,
    dimension,
    embed: (texts, signal) => cache.through(texts, (missing) => run(missing, signal)),
    forget: (texts) => cache.forget(texts),
    async close() {
      closed = true
      await extractor.dispose()
    },
  }
}

async function load(
  location: string,
  options: TransformersEmbedderOptions,
  allowRemote: boolean,
): Promise<FeatureExtractionPipeline> {
  // `local_files_only` alone does not stop every request in transformers.js 4 (the pipeline's file
  // listing still fetches), so the global switch is set for the duration of the load and restored.
  const previous = env.allowRemoteModels
  env.allowRemoteModels = allowRemote
  try {
    return await pipeline('feature-extraction', location, {
      dtype: options.dtype ?? 'fp32',
      local_files_only: !allowRemote,
    })
  } catch (cause) {
    throw loadError(location, options, allowRemote, cause)
  } finally {
    env.allowRemoteModels = previous
  }
}

function loadError(
  location: string,
  options: TransformersEmbedderOptions,
  allowRemote: boolean,
  cause: unknown,
): EngramError {
  const text = String((cause as Error)?.message ?? cause)
  const where = /(?:locally at|missing at) "([^"]+)"/.exec(text)?.[1]
  if (where !== undefined || (cause as Error)?.name === 'ModelFileNotFoundError') {
    return new EngramError(
      'INTERNAL_ERROR',
      `The transformers embedder found no model '${options.model}': ${where ?? location} is missing` +
        (allowRemote ? '.' : ', and downloading from the hub is off.'),
      {
        cause,
        resolution:
          'Put config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx in ' +
          `${options.localDir === undefined ? 'the model folder' : `${location}`} (EMBEDDER_MODEL_DIR/EMBEDDER_MODEL), ` +
          'or allow downloads (allowRemote, EMBEDDER_ALLOW_REMOTE=true) where the hub is reachable.',
      },
    )
  }
  if (/fetch failed/i.test(text)) {
    return new EngramError(
      'SERVICE_UNAVAILABLE',
      `The transformers embedder could not download '${options.model}' from the hub (${text}).`,
      { cause, resolution: 'Download the model files into EMBEDDER_MODEL_DIR and run offline.' },
    )
  }
  return new EngramError(
    'INTERNAL_ERROR',
    `The transformers embedder could not load '${options.model}' from ${location}: ${text}`,
    { cause, resolution: 'Check that the folder holds a complete ONNX export of the model.' },
  )
}

/**
 * The pipeline tokenises with `truncation: true`, which cuts at the tokenizer's `model_max_length`: the
 * model's own input limit. A tokenizer config without one (some exports omit it) would let a long text
 * through to position embeddings it does not have; the model's `max_position_embeddings` is that limit.
 */
function boundInput(extractor: FeatureExtractionPipeline): void {
  const tokenizer = extractor.tokenizer as unknown as {
    model_max_length: number
    _tokenizerConfig?: Record<string, unknown>
  }
  if (Number.isFinite(tokenizer.model_max_length)) return
  const positions = (extractor.model.config as unknown as Record<string, unknown>)
    .max_position_embeddings
  if (typeof positions === 'number' && positions > 0 && tokenizer._tokenizerConfig !== undefined)
    tokenizer._tokenizerConfig.model_max_length = positions
}

/** `hidden_size` from the model config (`d_model` or `dim` in some families), else one probe embedding. */
async function dimensionOf(extractor: FeatureExtractionPipeline): Promise<number> {
  const config = extractor.model.config as unknown as Record<string, unknown>
  for (const key of ['hidden_size', 'd_model', 'dim']) {
    const value = config[key]
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value
  }
  const probe = await extractor(['dimension probe'], { pooling: 'mean' })
  return probe.dims.at(-1)!
}
