import type { Candidate, ChannelList, FusionPlugin } from '@engram/core'

/**
 * CombMNZ (Fox & Shaw, "Combination of Multiple Searches", TREC-2, 1994): each list's scores are
 * min-max normalised to [0, 1] (an all-equal list normalises to 1), then a candidate scores the sum of
 * its normalised scores times the number of lists that contain it. Unlike RRF it uses score gaps, and
 * unlike a convex combination it rewards agreement between channels. Ties are broken by id, so runs
 * are reproducible.
 */
export function fuseByCombMnz(lists: readonly ChannelList[]): Candidate[] {
  const sum = new Map<string, number>()
  const hits = new Map<string, number>()
  for (const list of lists) {
    if (list.items.length === 0) continue
    const scores = list.items.map((i) => i.score)
    const lo = Math.min(...scores)
    const hi = Math.max(...scores)
    for (const item of list.items) {
      const normalised = hi > lo ? (item.score - lo) / (hi - lo) : 1
      sum.set(item.id, (sum.get(item.id) ?? 0) + normalised)
      hits.set(item.id, (hits.get(item.id) ?? 0) + 1)
    }
  }
  return [...sum]
    .map(([id, s]) => ({ id, score: s * hits.get(id)! }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
}

/** The fusion plugin: requests select it as `fusion=plugin:combmnz`. */
export function combMnz({ name = 'combmnz' }: { name?: string } = {}): FusionPlugin {
  return { kind: 'fusion', name, fuse: (lists) => fuseByCombMnz(lists) }
}
