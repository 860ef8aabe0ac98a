import type { Candidate, ChannelList, FusionPlugin } from '../../contracts/search-plugins.js'
import { byScoreThenId } from './order.js'

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score = Σ 1 / (k + rank), ranks
 * 1-based, k = 60 per the paper. A single list is fused the same way (the original scored it 1/rank,
 * which made scores incomparable between one- and two-list searches).
 */
export function fuseByReciprocalRank(lists: ChannelList[], k: number): Candidate[] {
  const scores = new Map<string, number>()
  for (const list of lists) {
    list.items.forEach((item, rank) =>
      scores.set(item.id, (scores.get(item.id) ?? 0) + 1 / (k + rank + 1)),
    )
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort(byScoreThenId)
}

export function rrf({ k = 60 }: { k?: number } = {}): FusionPlugin {
  return { kind: 'fusion', name: 'rrf', fuse: (lists) => fuseByReciprocalRank(lists, k) }
}
