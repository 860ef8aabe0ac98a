import { stem } from 'porter2'
import { ENGLISH_STOPWORDS } from './english-stopwords.js'

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu
const MARKS = /\p{M}+/gu

/** NFKC, lower-case, diacritics stripped: `Café` -> `cafe`. Shared by indexing and queries. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFD').replace(MARKS, '')
}

/**
 * Splits normalised text into word tokens, dropping English possessives (`emily's` -> `emily`) as
 * Lucene's EnglishPossessiveFilter does.
 */
export function tokenize(text: string): string[] {
  const out: string[] = []
  for (const match of normalizeText(text).matchAll(TOKEN)) {
    let token = match[0]
    const apostrophe = token.search(/['’]/)
    if (apostrophe >= 0) token = token.slice(0, apostrophe)
    if (token.length > 0) out.push(token)
  }
  return out
}

const cache = new Map<string, string>()

/** Porter2 (Snowball English) stem, memoised: vocabularies are small compared with token streams. */
export function stemToken(token: string): string {
  let stemmed = cache.get(token)
  if (stemmed === undefined) {
    stemmed = /^\p{N}+$/u.test(token) ? token : stem(token)
    if (cache.size > 200_000) cache.clear()
    cache.set(token, stemmed)
  }
  return stemmed
}

/**
 * The analysis chain for BM25: tokenize -> drop stopwords -> Porter2 stem, mirroring Lucene's
 * EnglishAnalyzer (StandardTokenizer, possessives, lower-case, stop set, stemmer) with Porter2 in place
 * of the original Porter stemmer.
 */
export function analyze(text: string): string[] {
  const out: string[] = []
  for (const token of tokenize(text)) {
    if (!ENGLISH_STOPWORDS.has(token)) out.push(stemToken(token))
  }
  return out
}
