/**
 * The byte form adapters store vectors in: the Float32 values in the platform's byte order (little
 * endian on every platform Node runs on in practice), so any adapter's stored vectors rebuild the
 * engine's indexes bit for bit.
 */
export function vectorToBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)
}

/** The vector of stored bytes; copies, as a driver's buffer may be reused and need not be 4-byte aligned. */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength)
  copy.set(bytes)
  return new Float32Array(copy.buffer)
}
