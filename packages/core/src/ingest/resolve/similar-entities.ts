import type { VectorReader } from '../../contracts/search-plugins.js'
import { entityEmbeddingText } from '../pipeline/embed-missing.js'
import type { EntityCandidate, ResolverOptions } from './entity-resolver.js'

/** Nearest stored entities asked for per candidate; the resolver keeps those above its threshold. */
const NEAREST = 5

export interface SimilarEntitiesOptions {
  /** The brain's vector indexes (its `entities` space holds a vector per embedded entity). */
  readonly reader: VectorReader
  /** The ingestion embedder (L2-normalised vectors, the model the brain's entity vectors came from). */
  readonly embed: (texts: string[], signal: AbortSignal) => Promise<Float32Array[]>
  /**
   * Vectors by text, shared with the task's `embedMissing` (its `EmbedMemo.vectors`): a candidate that
   * becomes a new entity is embedded once, here, and its vector reused for the entity.
   */
  readonly vectors: Map<string, Float32Array>
  readonly signal: AbortSignal
}

/** The text a candidate is compared by: the text its entity vector would embed (`name: description`). */
export const candidateText = (c: EntityCandidate) =>
  entityEmbeddingText({ name: c.name, description: c.description ?? null })

/**
 * The embedding step of entity resolution (issue 3 point 7; the original's third step, original-notes
 * section B.5): a candidate that no uuid and no name resolves is compared, by the text entity vectors
 * embed (`name: description`), with the brain's entity vectors; `resolveEntities` merges above its
 * cosine threshold unless a second match is within the ambiguity band. HNSW search over the entity
 * index (Malkov & Yashunin 2018), as the `entities` dense channel does.
 */
export function similarEntities(
  options: SimilarEntitiesOptions,
): Required<Pick<ResolverOptions, 'similar' | 'prepareSimilar'>> {
  const { reader, embed, vectors, signal } = options

  async function embedTexts(texts: string[]): Promise<void> {
    const missing = [...new Set(texts)].filter((text) => !vectors.has(text))
    if (missing.length === 0) return
    const embedded = await embed(missing, signal)
    missing.forEach((text, i) => vectors.set(text, embedded[i]!))
  }

  return {
    prepareSimilar: (candidates: EntityCandidate[]) => embedTexts(candidates.map(candidateText)),
    async similar(candidate: EntityCandidate) {
      const text = candidateText(candidate)
      await embedTexts([text])
      const hits = await reader.search('entities', vectors.get(text)!, NEAREST)
      return hits.map((hit) => ({ uuid: hit.id, score: hit.score }))
    },
  }
}
