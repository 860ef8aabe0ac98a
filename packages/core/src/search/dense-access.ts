import type { Embedder } from '../contracts/embedder.js'
import type { VectorReader } from '../contracts/search-plugins.js'
import type { BrainStore } from '../contracts/storage-adapter.js'
import { EngramError } from '../errors.js'
import type { BrainIndexes } from '../indexes/brain-indexes.js'

/** Meta key under which ingestion records a brain's embedder (see `ingest/pipeline/check-embedder.ts`). */
const EMBEDDER_META = 'embedder'

function embedderMismatch(brainId: string, brain: string, server: string): EngramError {
  return new EngramError(
    'VALIDATION_ERROR',
    `Brain '${brainId}' was embedded with ${brain}; the server runs ${server}, so dense scores would be meaningless.`,
    {
      status: 400,
      resolution:
        'Run the server with the embedder the brain was built with, or search with lexical channels only.',
    },
  )
}

/** The embedder a brain was ingested with (name and dimension), null when none is recorded. */
export async function recordedEmbedder(
  store: Pick<BrainStore, 'meta'>,
): Promise<{ name: string; dimension: number } | null> {
  const recorded = await store.meta.get(EMBEDDER_META)
  return recorded === null ? null : (JSON.parse(recorded) as { name: string; dimension: number })
}

/** Dense reads over a brain's in-memory vector indexes (`ctx.vectors`). */
export function vectorReader(brainId: string, indexes: BrainIndexes): VectorReader {
  return {
    async search(space, vector, k, filter) {
      const index = indexes.vectors.get(space)
      if (index === undefined) return []
      if (index.dimension !== vector.length)
        throw embedderMismatch(
          brainId,
          `${index.dimension}-d vectors`,
          `${vector.length}-d vectors`,
        )
      return index.search(vector, k, filter)
    },
    async get(space, ids) {
      const index = indexes.vectors.get(space)
      const out = new Map<string, Float32Array>()
      if (index === undefined) return out
      for (const id of ids) {
        const vector = index.get(id)
        if (vector !== undefined) out.set(id, vector)
      }
      return out
    },
  }
}

/**
 * The query embedding of one request (`ctx.embed`): each distinct text is embedded once however many
 * channels and stages ask, and each embedding is timed as its own stage, `search.embed`, so search
 * latency can be reported with and without it. The first call checks the embedder the brain was
 * ingested with (name and dimension) and refuses a different one with a 400.
 */
export function queryEmbedder(
  embedder: Embedder,
  brainId: string,
  store: () => Promise<BrainStore>,
  timer: { time<T>(stage: string, fn: () => Promise<T>): Promise<T> },
  signal: AbortSignal,
  recorded: () => Promise<{ name: string; dimension: number } | null> = async () =>
    recordedEmbedder(await store()),
): (text: string) => Promise<Float32Array> {
  const memo = new Map<string, Promise<Float32Array>>()
  // Someone waits for a query: ahead of ingestion on a shared embedder (`scheduledEmbedder`).
  const call = { brainId, priority: 'interactive' } as const
  let checked: Promise<void> | undefined
  const check = async () => {
    const brain = await recorded()
    if (brain === null) return
    if (brain.name !== embedder.name || brain.dimension !== embedder.dimension)
      throw embedderMismatch(
        brainId,
        `${brain.name} (${brain.dimension}-d)`,
        `${embedder.name} (${embedder.dimension}-d)`,
      )
  }
  return (text) => {
    let vector = memo.get(text)
    if (vector === undefined) {
      vector = (checked ??= check()).then(() =>
        timer.time('search.embed', async () => (await embedder.embed([text], signal, call))[0]!),
      )
      memo.set(text, vector)
    }
    return vector
  }
}
