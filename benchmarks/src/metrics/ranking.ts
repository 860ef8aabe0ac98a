/** One retrieved document with the score its system gave it. */
export interface Hit {
  readonly id: string
  readonly score: number
}

/** A run: query id -> hits (any order; `rankHits` fixes the order). */
export type Run = ReadonlyMap<string, readonly Hit[]>

/**
 * The canonical order used by every metric and by the TREC writer: score descending, ties broken by doc id
 * ascending (code-unit order), so a run file and its metrics always agree. trec_eval itself breaks ties by docno
 * descending; writing our order into the rank column and tie-free scores into the file avoids that ambiguity.
 */
export function rankHits(hits: readonly Hit[]): Hit[] {
  return [...hits].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
