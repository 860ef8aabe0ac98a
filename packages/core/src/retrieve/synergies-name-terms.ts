import type { Bm25Index } from '../indexes/bm25/bm25-index.js'

/**
 * A name term held by more than this share of the indexed names is left out of a remote-seed query.
 * Lucene's MoreLikeThis, the same "documents like this one" lookup, drops query terms above a maximum
 * document-frequency share (`setMaxDocFreqPct`); the rationale is BM25's IDF (Robertson & Sparck Jones,
 * "Relevance weighting of search terms", JASIS 1976; Robertson & Zaragoza, "The Probabilistic
 * Relevance Framework: BM25 and Beyond", FnTIR 2009, section 3.3): a term common to many names weighs
 * little as evidence that two names are alike, while its postings, which grow with the brain, are most
 * of a query's cost. "Meeting" or "Street" in thousands of names says little about which are like
 * "Meeting Kalo"; the rare term does.
 */
export const MAX_TERM_SHARE = 0.01
/** Terms held by at most this many names are always kept: small brains query every term, as before. */
export const MIN_CAPPED_DF = 50

/**
 * The query for names like `name`: its words whose terms (after the index's analysis) are each held by
 * at most max({@link MAX_TERM_SHARE} x names, {@link MIN_CAPPED_DF}) names; `name` itself when all are
 * (so small brains search exactly as before), '' when none is (a name of common words only picks no
 * remote seeds). Words, not analysed terms, are returned: the search analyses its query again.
 */
export function selectiveNameQuery(
  index: Pick<Bm25Index, 'size' | 'settings' | 'termWeights'>,
  name: string,
): string {
  const n = index.size
  const cap = Math.max(MAX_TERM_SHARE * n, MIN_CAPPED_DF)
  const { variant } = index.settings
  const selective = (text: string) =>
    index.termWeights(text).every(({ idf }) => documentFrequency(variant, idf, n) <= cap)
  if (selective(name)) return name
  return name
    .split(/\s+/)
    .filter((word) => index.termWeights(word).length > 0 && selective(word))
    .join(' ')
}

/**
 * Document frequency from a term's idf under the index's variant (the inverse of `Bm25Index.idf`):
 * `termWeights` reports idf, not df. Rounded, as df is a count.
 */
export function documentFrequency(
  variant: Bm25Index['settings']['variant'],
  idf: number,
  n: number,
): number {
  const e = Math.exp(idf)
  switch (variant) {
    case 'lucene':
      // idf = ln(1 + (n - df + 0.5) / (df + 0.5))  =>  df = (n + 1) / e - 0.5
      return Math.round((n + 1) / e - 0.5)
    case 'atire':
      return Math.round(n / e)
    case 'bm25l':
      return Math.round((n + 1) / e - 0.5)
    case 'bm25+':
      return Math.round((n + 1) / e)
  }
}
