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
    const h = this.heap
    if (h.length < this.k) {
      h.push({ doc, score, id })
      let i = h.length - 1
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!TopK.worse(h[i]!, h[parent]!)) break
        ;[h[i], h[parent]] = [h[parent]!, h[i]!]
        i = parent
      }
      return
    }
    // Most pushes lose to the current k-th best: reject them before allocating anything.
    if (!TopK.worse(h[0]!, { score, id })) return
    h[0] = { doc, score, id }
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

/**
 * The k-th largest of `scores[doc]` over `docs` (-Infinity when there are fewer than k): a min-heap of
 * k plain numbers, for thresholds that need the score only, not the ids ranked with it.
 */
export function kthLargest(
  scores: Float64Array,
  docs: ArrayLike<number>,
  count: number,
  k: number,
): number {
  if (k <= 0 || count < k) return -Infinity
  const heap = new Float64Array(k)
  for (let i = 0; i < k; i++) heap[i] = scores[docs[i]!]!
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(heap, i)
  for (let i = k; i < count; i++) {
    const score = scores[docs[i]!]!
    if (score > heap[0]!) {
      heap[0] = score
      siftDown(heap, 0)
    }
  }
  return heap[0]!
}

/**
 * How many of `scores[doc]` over `docs` exceed `bound`, counting no further than `enough`: "the k-th
 * largest exceeds `bound`" is "at least k exceed it", answered without a heap and usually in a prefix.
 */
export function countAbove(
  scores: Float64Array,
  docs: ArrayLike<number>,
  count: number,
  bound: number,
  enough: number,
): number {
  let above = 0
  for (let i = 0; i < count && above < enough; i++) if (scores[docs[i]!]! > bound) above++
  return above
}

function siftDown(heap: Float64Array, from: number): void {
  const n = heap.length
  let i = from
  for (;;) {
    const l = 2 * i + 1
    const r = l + 1
    let m = i
    if (l < n && heap[l]! < heap[m]!) m = l
    if (r < n && heap[r]! < heap[m]!) m = r
    if (m === i) return
    const t = heap[i]!
    heap[i] = heap[m]!
    heap[m] = t
    i = m
  }
}
