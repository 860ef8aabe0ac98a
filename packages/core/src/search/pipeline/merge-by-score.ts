import type { Candidate } from '../../contracts/search-plugins.js'

/**
 * Interleaves added candidates into the ranking by score (a neighbour scores at most its seed's
 * score / log2(3), so it lands below its seed). Appending them after every fused candidate, as this
 * once did, kept them out of any top k the fused list could fill. Stable: on equal scores a ranked
 * candidate stays ahead of an added one, and added ones keep their own order.
 */
export function mergeByScore(ranked: Candidate[], added: readonly Candidate[]): Candidate[] {
  const merged: Candidate[] = []
  let i = 0
  let j = 0
  while (i < ranked.length || j < added.length) {
    if (j >= added.length || (i < ranked.length && ranked[i]!.score >= added[j]!.score))
      merged.push(ranked[i++]!)
    else merged.push(added[j++]!)
  }
  return merged
}
