import type { Embedder } from '@engram/core'

/**
 * FOR TESTS ONLY: a tiny, deterministic bag-of-words {@link Embedder} (each lowercase word hashed to one of
 * `dimension` buckets, counts L2-normalised), so tests of the vector cache, the vector peers and the dense
 * conditions run in milliseconds without the use-lite model. Texts sharing words get a positive cosine.
 * Never used by a benchmark run: those embed with use-lite (bench-vectors.ts).
 */
export function testEmbedder(name = 'test-bow', dimension = 16): Embedder & { calls: string[][] } {
  const calls: string[][] = []
  return {
    kind: 'embedder',
    name,
    dimension,
    calls,
    async embed(texts, signal) {
      signal.throwIfAborted()
      calls.push([...texts])
      return texts.map((text) => {
        const v = new Float32Array(dimension)
        for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          let h = 2166136261
          for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619)
          v[(h >>> 0) % dimension]! += 1
        }
        const norm = Math.hypot(...v)
        return norm > 0 ? v.map((x) => x / norm) : v
      })
    },
  }
}
