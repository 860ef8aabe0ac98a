/**
 * Containment is transitive: a text that puts Stockton in California and California in the United
 * States has put Stockton in the United States, though no sentence says so. Document-level relation
 * extraction annotates such pairs (DocRED's "country" and "located in the administrative territorial
 * entity" between places two steps apart; Yao et al., ACL 2019), and they are the pairs a question about
 * a place's country walks. The closure here is the transitive closure of the text's `LOCATED_IN` edges,
 * bounded by rank so that one wrong edge does not spread: a place lies in a farther container only when
 * that container is ranked (a city, a region, a country or a continent, `placeRank`) and, where the inner
 * place is ranked too, ranked higher ("Sylvania Wilderness" and "Ottawa National Forest", unranked, take
 * nothing from a wrong edge between them).
 */

/** A `LOCATED_IN` edge as the closure reads it. */
export interface LocatedEdge {
  readonly subjectKey: string
  readonly objectKey: string
  readonly passageIds: readonly string[]
}

/**
 * The containers each place of `edges` lies in through one or more others, where no edge says so
 * directly, in the order the edges were written; each with the passages of the edges it follows.
 * `rankOf` gives a place's rank (`PLACE_RANK`) by its key, or undefined for an unranked place.
 */
export function locatedThrough(
  edges: readonly LocatedEdge[],
  rankOf: (key: string) => number | undefined,
): LocatedEdge[] {
  const outer = new Map<string, LocatedEdge[]>()
  for (const e of edges) {
    const list = outer.get(e.subjectKey)
    if (list === undefined) outer.set(e.subjectKey, [e])
    else list.push(e)
  }
  const closure: LocatedEdge[] = []
  for (const [inner, direct] of outer) {
    const innerRank = rankOf(inner)
    const reached = new Set([inner, ...direct.map((e) => e.objectKey)])
    // Breadth first, so a container takes the passages of its shortest path.
    const queue = direct.map((e) => ({ key: e.objectKey, passageIds: e.passageIds }))
    for (let i = 0; i < queue.length; i++) {
      const { key, passageIds } = queue[i]!
      for (const next of outer.get(key) ?? []) {
        if (reached.has(next.objectKey)) continue
        reached.add(next.objectKey)
        const via = [...new Set([...passageIds, ...next.passageIds])]
        queue.push({ key: next.objectKey, passageIds: via })
        const rank = rankOf(next.objectKey)
        if (rank !== undefined && (innerRank === undefined || rank > innerRank))
          closure.push({ subjectKey: inner, objectKey: next.objectKey, passageIds: via })
      }
    }
  }
  return closure
}
