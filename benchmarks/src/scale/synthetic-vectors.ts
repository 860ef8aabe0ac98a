import type { Embedder } from '@engram/core'
import { mulberry32 } from './synthetic-corpus.js'

/** Dimension of the synthetic vectors: USE-lite's, the default embedder's (DESIGN.md section 6). */
export const SYNTHETIC_DIMENSION = 512

/** FNV-1a 32-bit hash (Fowler, Noll, Vo): a cheap, stable seed from a string. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * A random unit vector, uniform on the sphere (normalised Gaussian coordinates, Muller 1959; Gaussians by
 * Box-Muller), the same for the same seed. SYNTHETIC: it carries no meaning, so it times vector search but
 * says nothing about dense quality, and random high-dimensional points are a hard case for HNSW.
 */
export function syntheticUnitVector(seed: number, dimension = SYNTHETIC_DIMENSION): Float32Array {
  const rnd = mulberry32(seed)
  const v = new Float32Array(dimension)
  let norm = 0
  for (let i = 0; i < dimension; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - rnd()))
    const t = 2 * Math.PI * rnd()
    v[i] = r * Math.cos(t)
    if (i + 1 < dimension) v[i + 1] = r * Math.sin(t)
  }
  for (let i = 0; i < dimension; i++) norm += v[i]! * v[i]!
  norm = Math.sqrt(norm)
  for (let i = 0; i < dimension; i++) v[i]! /= norm
  return v
}

/**
 * An embedder whose vector is a synthetic unit vector seeded by the text's hash: instant, so a search timed
 * with it is the search *excluding* query embedding (issue 4 reports the embedding separately).
 */
export function syntheticEmbedder(dimension = SYNTHETIC_DIMENSION): Embedder {
  return {
    kind: 'embedder',
    name: `synthetic-${dimension}`,
    dimension,
    embed: async (texts) => texts.map((t) => syntheticUnitVector(fnv1a(t), dimension)),
  }
}
