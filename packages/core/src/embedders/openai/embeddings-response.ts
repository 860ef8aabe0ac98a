/**
 * Reads the body of an OpenAI-compatible `POST /v1/embeddings` response
 * (https://platform.openai.com/docs/api-reference/embeddings/object):
 * `{ data: [{ index, embedding }] }`, where `embedding` is a float array or, with
 * `encoding_format: 'base64'`, the little-endian float32 bytes in base64. Rows are put in `index` order.
 * Returns the vectors, or a sentence saying what is wrong with the body.
 */
export function readEmbeddingsResponse(
  body: unknown,
  expectedCount: number,
  dimension: number,
): Float32Array[] | string {
  const data = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return 'the body has no `data` array'
  if (data.length !== expectedCount) {
    return `it returned ${data.length} embeddings for ${expectedCount} inputs`
  }
  const vectors: (Float32Array | undefined)[] = new Array(expectedCount)
  for (let i = 0; i < data.length; i++) {
    const row = data[i] as { index?: unknown; embedding?: unknown } | null
    const index = typeof row?.index === 'number' ? row.index : i
    if (!Number.isInteger(index) || index < 0 || index >= expectedCount || vectors[index]) {
      return `data[${i}].index is missing, repeated or out of range`
    }
    const vector = toVector(row?.embedding)
    if (vector === null) return `data[${i}].embedding is not a list of numbers`
    if (vector.length !== dimension) {
      return `data[${i}].embedding has ${vector.length} dimensions, expected ${dimension}`
    }
    vectors[index] = vector
  }
  return vectors as Float32Array[]
}

function toVector(embedding: unknown): Float32Array | null {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64')
    if (bytes.length % 4 !== 0) return null
    const vector = new Float32Array(bytes.length / 4)
    for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4)
    return vector
  }
  if (!Array.isArray(embedding) || embedding.length === 0) return null
  if (!embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) return null
  return Float32Array.from(embedding as number[])
}
