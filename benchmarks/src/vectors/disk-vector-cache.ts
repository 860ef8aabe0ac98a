import { createHash } from 'node:crypto'
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'

/** Bytes of a SHA-256 digest: the per-record key. */
const KEY_BYTES = 32
const FORMAT = 'engram-bench-vectors/1'

/**
 * Vectors on disk, keyed by embedder name and the SHA-256 of the text, so a rerun of a benchmark does not
 * embed its corpus again (SciFact takes minutes with use-lite on two cores). One append-only file per
 * embedder: a JSON header line naming the embedder and dimension, then fixed-size records (32-byte digest,
 * `dimension` little-endian float32s). A file whose header names another embedder is never read, so a
 * vector is only ever returned to the embedder that computed it. A torn last record (an interrupted
 * append) is cut off when the file is opened.
 *
 * The folder is a cache, not data: deleting it costs one re-embedding, never a different number.
 */
export class DiskVectorCache {
  readonly #vectors = new Map<string, Float32Array>()
  readonly #file: string

  private constructor(
    readonly embedder: string,
    readonly dimension: number,
    file: string,
  ) {
    this.#file = file
  }

  /** Opens (creating it if needed) the cache file of one embedder under `dir` and loads every vector. */
  static open(dir: string, embedder: string, dimension: number): DiskVectorCache {
    if (!Number.isInteger(dimension) || dimension < 1)
      throw new RangeError(`dimension must be a positive integer (got ${dimension})`)
    mkdirSync(dir, { recursive: true })
    const file = join(dir, cacheFileName(embedder, dimension))
    const cache = new DiskVectorCache(embedder, dimension, file)
    const header = `${JSON.stringify({ format: FORMAT, embedder, dimension })}\n`
    if (!existsSync(file)) writeFileSync(file, header)
    else cache.#load(header)
    return cache
  }

  /** Vectors held. */
  get size(): number {
    return this.#vectors.size
  }

  /** A copy of the cached vector of `text`, or undefined on a miss. */
  get(text: string): Float32Array | undefined {
    return this.#vectors.get(textKey(text))?.slice()
  }

  has(text: string): boolean {
    return this.#vectors.has(textKey(text))
  }

  /** Stores vectors (one per text) in memory and appends them to the file in one write. */
  put(texts: readonly string[], vectors: readonly Float32Array[]): void {
    if (texts.length !== vectors.length)
      throw new Error(`put: ${texts.length} texts but ${vectors.length} vectors`)
    const record = KEY_BYTES + this.dimension * 4
    const out = Buffer.alloc(record * texts.length)
    let n = 0
    texts.forEach((text, i) => {
      const vector = vectors[i]!
      if (vector.length !== this.dimension)
        throw new RangeError(
          `${this.embedder} returned a ${vector.length}-d vector; the cache holds ${this.dimension}-d`,
        )
      if (!vector.every(Number.isFinite))
        throw new RangeError(`${this.embedder} returned a non-finite vector`)
      const key = textKey(text)
      if (this.#vectors.has(key)) return
      this.#vectors.set(key, vector.slice())
      const at = n++ * record
      Buffer.from(key, 'hex').copy(out, at)
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(out, at + KEY_BYTES)
    })
    if (n > 0) appendFileSync(this.#file, out.subarray(0, n * record))
  }

  #load(header: string): void {
    const bytes = readFileSync(this.#file)
    const start = Buffer.byteLength(header)
    const found = bytes.subarray(0, start).toString('utf8')
    if (found !== header)
      throw new Error(
        `${this.#file} does not hold ${this.embedder} ${this.dimension}-d vectors (header ${JSON.stringify(found.trim())}); delete it to rebuild`,
      )
    const record = KEY_BYTES + this.dimension * 4
    const body = bytes.length - start
    const whole = Math.floor(body / record)
    for (let i = 0; i < whole; i++) {
      const at = start + i * record
      const key = bytes.subarray(at, at + KEY_BYTES).toString('hex')
      // Copy into a fresh, aligned buffer: a Float32Array view needs a 4-byte aligned offset.
      const vector = new Float32Array(this.dimension)
      new Uint8Array(vector.buffer).set(bytes.subarray(at + KEY_BYTES, at + record))
      this.#vectors.set(key, vector)
    }
    if (body % record !== 0) truncateSync(this.#file, start + whole * record)
  }
}

/** The SHA-256 of a text, hex: the key of its vector inside one embedder's file. */
export function textKey(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * One file per embedder and dimension. The readable part is the name with unsafe characters replaced;
 * a short hash of the exact name keeps two names that sanitise alike (`a:b`, `a/b`) apart.
 */
export function cacheFileName(embedder: string, dimension: number): string {
  const safe = embedder.replace(/[^A-Za-z0-9._-]/g, '_')
  const hash = createHash('sha256').update(embedder, 'utf8').digest('hex').slice(0, 8)
  return `${safe}-${dimension}d-${hash}.vectors`
}
