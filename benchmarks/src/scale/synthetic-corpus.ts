import type { BenchDoc, BenchQuery } from '../loaders/dataset-types.js'

/** mulberry32 (Tommy Ettinger, public domain): a tiny seeded PRNG so a synthetic corpus is identical run to run. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'ze',
  'pa',
  'qui',
  'bre',
  'dor',
  'fen',
  'gal',
]

/** Word number n as a pronounceable, unique, non-English token (base-15 syllables). */
function word(n: number): string {
  let s = ''
  let x = n + 15
  while (x > 0) {
    s += SYLLABLES[x % 15]
    x = Math.floor(x / 15)
  }
  return s
}

/**
 * Synthetic passages for scale runs only (labelled synthetic in every table): words drawn from a Zipf(1.0)
 * distribution over a fixed vocabulary (Zipf's law for natural-language term frequencies), 40-120 words each.
 * Quality numbers are meaningless on this text; it exists to measure build time, memory and latency.
 */
export function syntheticPassages(count: number, seed = 42, vocabulary = 50_000): BenchDoc[] {
  const rnd = mulberry32(seed)
  const sample = zipfSampler(vocabulary, rnd)
  const docs: BenchDoc[] = []
  for (let i = 0; i < count; i++) {
    const len = 40 + Math.floor(rnd() * 81)
    const words: string[] = []
    for (let j = 0; j < len; j++) words.push(word(sample()))
    docs.push({ id: `s${i}`, text: words.join(' ') })
  }
  return docs
}

/** Queries of 2-6 words from the same distribution, skipping the 100 most frequent (stopword-like) ranks. */
export function syntheticQueries(count: number, seed = 7, vocabulary = 50_000): BenchQuery[] {
  const rnd = mulberry32(seed)
  const sample = zipfSampler(vocabulary, rnd)
  return Array.from({ length: count }, (_, i) => {
    const words: string[] = []
    const len = 2 + Math.floor(rnd() * 5)
    while (words.length < len) {
      const r = sample()
      if (r >= 100) words.push(word(r))
    }
    return { id: `sq${i}`, text: words.join(' ') }
  })
}

/** Inverse-CDF sampling of Zipf ranks 0..n-1 with exponent 1, by binary search over the cumulative weights. */
function zipfSampler(n: number, rnd: () => number): () => number {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / (r + 1)
  return () => {
    const u = rnd() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cdf[mid]! < u) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
