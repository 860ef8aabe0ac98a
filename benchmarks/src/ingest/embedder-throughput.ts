import { performance } from 'node:perf_hooks'
import type { Embedder } from '@engram/core'

/** An embedder that remembers every text it was asked to embed, so a baseline can embed the same texts. */
export function recordingEmbedder<E extends Embedder>(inner: E): { embedder: E; texts: string[] } {
  const texts: string[] = []
  return {
    texts,
    embedder: {
      ...inner,
      embed: (batch: string[], signal: AbortSignal) => {
        texts.push(...batch)
        return inner.embed(batch, signal)
      },
    },
  }
}

/** The embedder's own batch throughput: every text in one `embed` call (it batches and spreads internally). */
export async function embedderThroughput(
  embedder: Embedder,
  texts: readonly string[],
): Promise<{ texts: number; ms: number; perSecond: number }> {
  const t0 = performance.now()
  const vectors = await embedder.embed([...texts], AbortSignal.timeout(60 * 60_000))
  const ms = performance.now() - t0
  if (vectors.length !== texts.length)
    throw new Error(`embedder returned ${vectors.length} vectors for ${texts.length} texts`)
  return { texts: texts.length, ms, perSecond: (texts.length / ms) * 1000 }
}
