import { stem } from 'porter2'
import { ENGLISH_STOPWORDS, NLTK_ENGLISH_STOPWORDS } from './english-stopwords.js'

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

/** Empties the stem memo (after a forget: it holds the words of every text analysed). */
export function clearStemCache(): void {
  cache.clear()
}

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
 * The term analysis query terms are matched with outside the BM25 indexes (graph hops, entity and
 * target resolution, context packs): tokenize -> drop stopwords -> Porter2 stem, mirroring Lucene's
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

const LETTERS_OR_DIGITS = /\p{L}+|\p{N}+/gu

export interface AnalyzerOptions {
  /** Tokens dropped (before stemming). */
  stopwords: ReadonlySet<string>
  /**
   * A token mixing letters and digits also yields its letter and digit runs (`p53` -> `p53`, `p`,
   * `53`), as Lucene's WordDelimiterGraphFilter does with splitOnNumerics and preserveOriginal.
   */
  splitLettersDigits: boolean
}

/** An analysis chain: tokenize -> (split letters from digits) -> drop stopwords -> Porter2 stem. */
export function analyzer(options: AnalyzerOptions): (text: string) => string[] {
  const { stopwords, splitLettersDigits } = options
  return (text) => {
    const out: string[] = []
    for (const token of tokenize(text)) {
      if (!stopwords.has(token)) out.push(stemToken(token))
      if (!splitLettersDigits) continue
      const runs = token.match(LETTERS_OR_DIGITS)
      if (runs === null || runs.length < 2) continue
      for (const run of runs) if (!stopwords.has(run)) out.push(stemToken(run))
    }
    return out
  }
}

/**
 * The analysis chain of the BM25 indexes: tokens split at letter/digit boundaries with the original
 * kept (`covid19` -> `covid19`, `covid`, `19`), NLTK's English stopwords dropped, Porter2 stems.
 * Chosen over `analyze`'s chain on SciFact train, LoCoMo dev and MuSiQue-100
 * (benchmarks/results/bm25-tuning.md): the split gains about a point of nDCG@10 on SciFact train, the
 * longer stop list about four points of recall@10 on LoCoMo's conversational questions.
 */
export const analyzeBm25: (text: string) => string[] = analyzer({
  stopwords: NLTK_ENGLISH_STOPWORDS,
  splitLettersDigits: true,
})
