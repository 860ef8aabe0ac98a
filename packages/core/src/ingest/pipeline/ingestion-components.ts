import type { EmbedOptions } from '../../contracts/embedder.js'
import type { ExtractedGraph, ExtractionInput } from '../../contracts/extractor.js'
import type { JsonObject } from '../../model/common.js'

/** A chunk of source text with its offsets. */
export interface TextChunk {
  index: number
  text: string
  start: number
  end: number
}

/** `Embedder.embed`: the brain and priority let a shared embedder schedule calls fairly. */
export type EmbedFunction = (
  texts: string[],
  signal: AbortSignal,
  options?: EmbedOptions,
) => Promise<Float32Array[]>

/** The parts the ingestion pipeline is assembled from; `registerIngestion` wires the defaults. */
export interface IngestionComponents {
  /**
   * Parses an uploaded file into text (throws 415/422 EngramErrors); a string `metadata.title` titles
   * the source when the caller's meta has none.
   */
  parseFile(input: {
    filename: string
    mimeType: string | null
    bytes: Uint8Array
  }): Promise<{ text: string; metadata?: JsonObject }>
  /** Renders a JSON document as text for chunking. */
  jsonToText(json: JsonObject): string
  chunk(text: string): TextChunk[]
  extract(input: ExtractionInput, signal: AbortSignal, brainId?: string): Promise<ExtractedGraph>
  /** Embeds texts (L2-normalised); null when no embedder is configured. */
  embed: EmbedFunction | null
  /** Name and dimension recorded per brain; a mismatch is refused. */
  embedderInfo: { name: string; dimension: number } | null
}
