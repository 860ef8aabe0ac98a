/**
 * Cosine similarity of two embeddings, a·b / (‖a‖·‖b‖), normalising both sides, so it holds for
 * vectors that are not unit length (an embedder that breaks the contract, a mean of unit vectors).
 * `null` when it is undefined: the dimensions differ (the brain changed embedder) or a side has zero
 * norm (including empty vectors).
 */
export function cosineOrNull(a: Float32Array, b: Float32Array): number | null {
  if (a.length !== b.length) return null
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return na === 0 || nb === 0 ? null : dot / Math.sqrt(na * nb)
}

/** {@link cosineOrNull} with 0 where the cosine is undefined: scores that treat "unknown" as "unlike". */
export function cosine(a: Float32Array, b: Float32Array): number {
  return cosineOrNull(a, b) ?? 0
}
