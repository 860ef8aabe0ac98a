/** A copy of `v` scaled to unit length (cosine becomes a dot product); the zero vector stays zero. */
export function unitVector(v: ArrayLike<number>): Float32Array {
  let norm = 0
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  return Float32Array.from(v, (x) => x * scale)
}
