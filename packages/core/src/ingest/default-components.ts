import type { Embedder } from '../contracts/embedder.js'
import type { Extractor } from '../contracts/extractor.js'
import { chunkText, type ChunkOptions } from './chunk/chunk-text.js'
import { onDemandLocalExtractor } from './extract/on-demand-local-extractor.js'
import { jsonToText, parseFile } from './parse/parse-file.js'
import type { IngestionComponents } from './pipeline/ingestion-components.js'

export interface DefaultComponentsOptions {
  extractor?: Extractor
  chunk?: ChunkOptions
  /** Embeds passages and entities; omit (or null) to store them without vectors. Not closed here. */
  embedder?: Embedder | null
}

/** The ingestion pipeline's parts with the built-in defaults (local extractor, 256/32 chunks). */
export function defaultIngestionComponents(
  options: DefaultComponentsOptions = {},
): IngestionComponents {
  const extractor = options.extractor ?? onDemandLocalExtractor()
  const embedder = options.embedder ?? null
  return {
    parseFile: async (input) => parseFile(input),
    jsonToText,
    chunk: (text) => chunkText(text, options.chunk),
    extract: (input, signal, brainId) =>
      extractor.extract(input, brainId === undefined ? { signal } : { signal, brainId }),
    embed: embedder ? (texts, signal, call) => embedder.embed(texts, signal, call) : null,
    embedderInfo: embedder ? { name: embedder.name, dimension: embedder.dimension } : null,
  }
}
