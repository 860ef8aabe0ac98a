import { ENGLISH_STOPWORDS } from '../../analysis/english-stopwords.js'

/**
 * Words of a request that say nothing about what is wanted ("show me some ...", "I want to find ...")
 * and that the BM25 stop set keeps (it must, to match Lucene's): dropped on top of it before counting
 * how specific a query is.
 */
const REQUEST_WORDS: ReadonlySet<string> = new Set([
  'find',
  'from',
  'get',
  'i',
  'me',
  'my',
  'show',
  'some',
  'want',
])

const isContentWord = (token: string) => !ENGLISH_STOPWORDS.has(token) && !REQUEST_WORDS.has(token)

/**
 * How much a user's preference profile may move a ranking, from the query alone (original-notes
 * section D.8): a vague query ("shoes") leaves room for taste, a specific one ("red leather shoes size
 * 42") does not, and any digit means the user is after something exact.
 */
export function personalizationWeight(query: string): number {
  const tokens = (query.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter(isContentWord)
  if (tokens.length === 0 || tokens.some((t) => /\d/.test(t))) return 0
  if (tokens.length === 1) return 0.85
  if (tokens.length === 2) return 0.5
  if (tokens.length === 3) return 0.25
  return 0.1
}

function minMax(values: number[]): number[] {
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  return values.map((v) => (hi > lo ? (v - lo) / (hi - lo) : 0))
}

/**
 * Blends retrieval scores with preference scores: (1 - λ)·minmax(r) + λ·minmax(p). Never drops a hit;
 * with λ = 0 or no preference signal the order is unchanged. Ties keep the retrieval order.
 */
export function blendPreferences<T extends { score: number }>(
  hits: T[],
  preference: number[],
  lambda: number,
): { hit: T; score: number }[] {
  if (hits.length === 0 || lambda <= 0 || preference.every((p) => p === 0)) {
    return hits.map((hit) => ({ hit, score: hit.score }))
  }
  const r = minMax(hits.map((h) => h.score))
  const p = minMax(preference)
  return hits
    .map((hit, i) => ({ hit, score: (1 - lambda) * r[i]! + lambda * p[i]!, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ hit, score }) => ({ hit, score }))
}
