import type { Candidate, FusionPlugin } from '../../contracts/search-plugins.js'

/** No fusion: lists are concatenated in request order, keeping each id's first (highest) position. */
export function noFusion(): FusionPlugin {
  return {
    kind: 'fusion',
    name: 'none',
    scored: false,
    fuse(lists) {
      const out: Candidate[] = []
      const seen = new Set<string>()
      for (const list of lists) {
        for (const item of list.items) {
          if (seen.has(item.id)) continue
          seen.add(item.id)
          out.push(item)
        }
      }
      return out
    },
  }
}
