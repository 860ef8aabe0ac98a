/**
 * Scales a vector to unit Euclidean (L2) length, as the `Embedder` contract requires, so cosine similarity
 * is a dot product. A zero vector (nothing the model recognised) is returned as zeros: it has no direction.
 */
export function l2Normalize(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values)
  let sum = 0
  for (let i = 0; i < out.length; i++) sum += out[i]! * out[i]!
  if (sum === 0 || !Number.isFinite(sum)) return out
  const scale = 1 / Math.sqrt(sum)
  for (let i = 0; i < out.length; i++) out[i]! *= scale
  return out
}
