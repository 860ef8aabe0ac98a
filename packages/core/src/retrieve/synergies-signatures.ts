import { analyze } from '../analysis/analyze.js'
import type { GraphIndex } from '../indexes/graph/graph-index.js'
import { EVENT_LABEL } from '../model/entity.js'

const termCache = new Map<string, readonly string[]>()

/** Analysed terms of a predicate or label (`LIVES_IN` -> `live`); memoised, the vocabulary is small. */
function nameTerms(name: string): readonly string[] {
  let terms = termCache.get(name)
  if (terms === undefined) {
    terms = analyze(name.replace(/_/g, ' '))
    if (termCache.size > 10_000) termCache.clear()
    termCache.set(name, terms)
  }
  return terms
}

/**
 * Relation signatures of paths, interned for one request. A signature is the set of terms of a path's
 * predicates and, through an event, of the event's labels (its kind: `CONFERENCE`, `PURCHASE`); two
 * signatures compare by Jaccard overlap (Jaccard, "Étude comparative de la distribution florale", 1901).
 * Paths are keyed by numbers (interned predicate and label-set ids), so the hot loop allocates nothing
 * for a signature it has seen.
 */
export class Signatures {
  /** Signature id by [first predicate][second predicate + 1][event label set + 1]. */
  private readonly table: number[][][] = []
  private readonly terms: Set<string>[] = []
  /** Similarity by [smaller id][larger id]. */
  private readonly pairs: number[][] = []

  constructor(private readonly graph: GraphIndex) {}

  /** The signature id of a step: `first` edge, then through `event` the `second` leg (-1: direct). */
  of(first: number, second: number, event: number): number {
    const g = this.graph
    const p1 = g.predicateId[first]!
    const p2 = second < 0 ? -1 : g.predicateId[second]!
    const l = event < 0 ? -1 : g.labelSetId[event]!
    const byFirst = (this.table[p1] ??= [])
    const bySecond = (byFirst[p2 + 1] ??= [])
    let id = bySecond[l + 1]
    if (id === undefined) {
      const terms = new Set<string>()
      for (const t of nameTerms(g.predicate[first]!)) terms.add(t)
      if (second >= 0) for (const t of nameTerms(g.predicate[second]!)) terms.add(t)
      if (event >= 0)
        for (const label of g.labels[event]!)
          if (label !== EVENT_LABEL) for (const t of nameTerms(label)) terms.add(t)
      id = this.terms.length
      this.terms.push(terms)
      bySecond[l + 1] = id
    }
    return id
  }

  /** Jaccard overlap of two signatures' terms (1 for two empty ones), memoised. */
  similarity(a: number, b: number): number {
    if (a === b) return 1
    const row = (this.pairs[Math.min(a, b)] ??= [])
    let sim = row[Math.max(a, b)]
    if (sim === undefined) {
      const ta = this.terms[a]!
      const tb = this.terms[b]!
      let shared = 0
      for (const t of tb) if (ta.has(t)) shared++
      const union = ta.size + tb.size - shared
      sim = union === 0 ? 1 : shared / union
      row[Math.max(a, b)] = sim
    }
    return sim
  }

  /** The terms of a signature, space-separated and sorted (for explanations and tests). */
  text(id: number): string {
    return [...this.terms[id]!].sort().join(' ')
  }
}
