import type { Candidate, ChannelList, FusionPlugin } from '../../contracts/search-plugins.js'
import { byScoreThenId } from './order.js'
import { fuseByReciprocalRank } from './reciprocal-rank.js'

function minMax(items: Candidate[]): Map<string, number> {
  const scores = items.map((i) => i.score)
  const lo = Math.min(...scores)
  const hi = Math.max(...scores)
  return new Map(items.map((i) => [i.id, hi > lo ? (i.score - lo) / (hi - lo) : 1]))
}

/**
 * Convex combination of min-max normalised scores (Bruch, Gai & Ingber, "An Analysis of Fusion
 * Functions for Hybrid Retrieval", TOIS 2023): α·dense + (1 − α)·lexical, a missing side counting 0
 * and an all-equal list normalising to 1. Graph and plugin lists join by reciprocal rank afterwards.
 */
export function fuseByConvexCombination(lists: ChannelList[], alpha: number): Candidate[] {
  const dense = lists.filter((l) => l.signal === 'dense').flatMap((l) => l.items)
  const lexical = lists.filter((l) => l.signal === 'bm25').flatMap((l) => l.items)
  const d = minMax(dense)
  const b = minMax(lexical)
  const combined = [...new Set([...d.keys(), ...b.keys()])]
    .map((id) => ({ id, score: alpha * (d.get(id) ?? 0) + (1 - alpha) * (b.get(id) ?? 0) }))
    .sort(byScoreThenId)
  const others = lists.filter((l) => l.signal !== 'dense' && l.signal !== 'bm25')
  if (others.length === 0) return combined
  if (combined.length === 0) return fuseByReciprocalRank(others, 60)
  return fuseByReciprocalRank([{ name: 'cc', signal: 'bm25', items: combined }, ...others], 60)
}

export function convexCombination({ alpha = 0.5 }: { alpha?: number } = {}): FusionPlugin {
  return {
    kind: 'fusion',
    name: 'cc',
    fuse: (lists, options) => fuseByConvexCombination(lists, options.alpha ?? alpha),
  }
}
