import {
  isEngramError,
  openaiEmbedder,
  useLiteEmbedder,
  type Embedder,
  type UseLiteEmbedder,
} from '@engram/core'
import { ConfigError, type ServerConfig } from './config.js'

/** An embedder, with use-lite's `warmUp()` when it has one. */
export type ConfiguredEmbedder = Embedder & Partial<Pick<UseLiteEmbedder, 'warmUp'>>

/**
 * The embedder `EMBEDDER` names, built from the `EMBEDDER_*` settings; null for `none`. The transformers
 * plugin is imported only when chosen (it pulls in onnxruntime). A model that cannot be loaded becomes a
 * ConfigError, so the CLI prints its message and resolution instead of a stack.
 */
export async function embedderFromConfig(config: ServerConfig): Promise<ConfiguredEmbedder | null> {
  const options = config.embedderOptions
  try {
    switch (config.embedder) {
      case 'none':
        return null
      case 'use-lite':
        return useLiteEmbedder({ workers: options.workers })
      case 'openai':
        return openaiEmbedder({
          baseUrl: options.url!,
          model: options.model!,
          apiKey: options.apiKey,
          dimension: options.dimension,
        })
      case 'transformers': {
        const { transformersEmbedder } = await import('@engram/embedder-transformers')
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
