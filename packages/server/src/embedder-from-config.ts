import {
  isEngramError,
  openaiEmbedder,
  scheduledEmbedder,
  useLiteEmbedder,
  type Embedder,
  type UseLiteEmbedder,
} from '@engram/core'
import { ConfigError, type ServerConfig } from './config.js'
import { importOptionalPackage } from './optional-package.js'

/** An embedder, with use-lite's `warmUp()` when it has one. */
export type ConfiguredEmbedder = Embedder & Partial<Pick<UseLiteEmbedder, 'warmUp'>>

/** Requests to a remote embeddings server in flight at once. */
const OPENAI_CONCURRENCY = 4

/**
 * The embedder `EMBEDDER` names, built from the `EMBEDDER_*` settings, shared fairly between brains and
 * between queries and ingestion (`scheduledEmbedder`); null for `none`.
 */
export async function embedderFromConfig(config: ServerConfig): Promise<ConfiguredEmbedder | null> {
  const options = config.embedderOptions
  const embedder = await loadEmbedder(config)
  if (embedder === null) return null
  const concurrency =
    config.embedder === 'use-lite'
      ? options.workers
      : config.embedder === 'openai'
        ? OPENAI_CONCURRENCY
        : // transformers: one inference at a time; onnxruntime spreads it over its own threads.
          1
  return scheduledEmbedder(embedder, { concurrency })
}

/**
 * The embedder itself. The transformers plugin is imported only when chosen (it pulls in onnxruntime).
 * A model that cannot be loaded becomes a ConfigError, so the CLI prints its message and resolution
 * instead of a stack.
 */
async function loadEmbedder(config: ServerConfig): Promise<ConfiguredEmbedder | null> {
  const options = config.embedderOptions
  try {
    switch (config.embedder) {
      case 'none':
        return null
      case 'use-lite':
        return useLiteEmbedder({
          workers: options.workers,
          ...(options.precision ? { precision: options.precision } : {}),
        })
      case 'openai':
        return openaiEmbedder({
          baseUrl: options.url!,
          model: options.model!,
          apiKey: options.apiKey,
          dimension: options.dimension,
        })
      case 'transformers': {
        const { transformersEmbedder } = await importOptionalPackage(
          () => import('@engram/embedder-transformers'),
          '@engram/embedder-transformers',
          'EMBEDDER=transformers',
        )
        return await transformersEmbedder({
          model: options.model!,
          localDir: options.modelDir,
          allowRemote: options.allowRemote,
        })
      }
    }
  } catch (error) {
    if (!isEngramError(error)) throw error
    throw new ConfigError(`EMBEDDER=${config.embedder}: ${error.message} ${error.resolution}`, {
      cause: error,
    })
  }
}
