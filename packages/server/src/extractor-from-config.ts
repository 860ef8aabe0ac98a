import { isEngramError, localExtractorPool, type Extractor } from '@engram/core'
import { ConfigError, type ServerConfig } from './config.js'
import { importOptionalPackage } from './optional-package.js'

/**
 * The extractor `EXTRACTOR` names: for `local`, the built-in extractor on `EXTRACTOR_WORKERS` worker
 * threads (undefined, the pipeline's in-thread default, when it is 0); the
 * `@engram/extractor-llm` plugin for `llm` (an optional package, imported only then), built from `EXTRACTOR_URL`, `EXTRACTOR_MODEL` and
 * `EXTRACTOR_API_KEY`. Missing or invalid settings are a ConfigError, so the server refuses to start
 * instead of failing every ingestion later.
 */
export async function extractorFromConfig(
  config: ServerConfig,
): Promise<(Extractor & { close?(): Promise<void>; warmUp?(): Promise<number[]> }) | undefined> {
  if (config.extractor === 'local')
    return config.extractorWorkers > 0
      ? localExtractorPool({ workers: config.extractorWorkers })
      : undefined
  const { url, model, apiKey } = config.extractorOptions
  if (url === undefined)
    throw new ConfigError(
      'EXTRACTOR_URL must be the API root of an OpenAI-compatible server when EXTRACTOR=llm (e.g. https://api.openai.com/v1 or http://localhost:11434/v1).',
    )
  if (model === undefined)
    throw new ConfigError('EXTRACTOR_MODEL must name the chat model when EXTRACTOR=llm.')
  const { llmExtractor } = await importOptionalPackage(
    () => import('@engram/extractor-llm'),
    '@engram/extractor-llm',
    'EXTRACTOR=llm',
  )
  try {
    return llmExtractor({ baseUrl: url, model, ...(apiKey === undefined ? {} : { apiKey }) })
  } catch (error) {
    if (isEngramError(error)) throw new ConfigError(`${error.message} ${error.resolution}`)
    throw error
  }
}
