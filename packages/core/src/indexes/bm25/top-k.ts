/** A bounded min-heap keeping the k best (score desc, id asc) entries. */
export class TopK {
  private readonly heap: { doc: number; score: number; id: string }[] = []
  constructor(private readonly k: number) {}

  /** True when `a` ranks below `b` (lower score, or equal score and larger id). */
  private static worse(
    a: { score: number; id: string },
    b: { score: number; id: string },
  ): boolean {
    return a.score < b.score || (a.score === b.score && a.id > b.id)
  }

  push(doc: number, score: number, id: string): void {
    const item = { doc, score, id }
    const h = this.heap
    if (h.length < this.k) {
      h.push(item)
      let i = h.length - 1
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!TopK.worse(h[i]!, h[parent]!)) break
        ;[h[i], h[parent]] = [h[parent]!, h[i]!]
        i = parent
      }
      return
    }
    if (!TopK.worse(h[0]!, item)) return
    h[0] = item
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < h.length && TopK.worse(h[l]!, h[m]!)) m = l
      if (r < h.length && TopK.worse(h[r]!, h[m]!)) m = r
      if (m === i) break
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }

  /** The k-th best score so far (-Infinity until k entries). */
  threshold(): number {
    return this.heap.length < this.k ? -Infinity : this.heap[0]!.score
  }

  sorted() {
    return [...this.heap].sort(
      (a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
  }
}
