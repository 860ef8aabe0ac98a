import { rankHits, type Run } from './ranking.js'

/**
 * Formats a run in TREC format, one line per hit: `qid Q0 docid rank score tag` (trec_eval's input; Voorhees &
 * Harman, TREC, 2005). Queries in code-unit order, hits in rankHits order (score desc, ties by doc id), rank from 1.
 * Scores are printed with full precision so re-sorting by score reproduces the ranks except on exact ties.
 */
export function formatTrecRun(run: Run, tag: string): string {
  const safeTag = tag.replace(/\s+/g, '_')
  const lines: string[] = []
  for (const qid of [...run.keys()].sort()) {
    rankHits(run.get(qid) ?? []).forEach((h, i) => {
      lines.push(`${qid} Q0 ${h.id} ${i + 1} ${h.score} ${safeTag}`)
    })
  }
  return lines.length ? `${lines.join('\n')}\n` : ''
}
