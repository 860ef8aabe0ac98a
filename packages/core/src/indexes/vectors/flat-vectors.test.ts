import { describe, expect, it } from 'vitest'
import { FlatVectors } from './flat-vectors.js'
import { mulberry32 as prng } from '../../seeded-random.js'

const unit = (v: Float32Array) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0))
  return Float32Array.from(v, (x) => (n > 0 ? x / n : 0))
}

/** Brute force in plain float64 over the (already unit) stored vectors: every score, sorted best first, ties by id. */
function ranked(units: (Float32Array | null)[], query: Float32Array) {
  const q = unit(query)
  const all: { id: string; score: number }[] = []
  units.forEach((u, label) => {
    if (u === null) return
    let score = 0
    for (let i = 0; i < q.length; i++) score += u[i]! * q[i]!
    all.push({ id: `e${label}`, score })
  })
  return all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The k best of `ranked` that `accept` takes. */
const reference = (
  all: { id: string; score: number }[],
  k: number,
  accept: (id: string) => boolean,
) => all.filter((hit) => accept(hit.id)).slice(0, k)

/** Largest difference between the hits' scores and the reference's, position by position. */
const scoreGap = (got: { score: number }[], want: { score: number }[]) =>
  Math.max(0, ...got.map((h, j) => Math.abs(h.score - want[j]!.score)))

describe('FlatVectors.search', () => {
  it('scores every row across the kernel calls a large index is scored in (4,096 rows each)', () => {
    const dim = 8 // divisible by 4: the SIMD kernel
    const n = 10_000
    const random = prng(7)
    const store = new FlatVectors(dim, n)
    const units: Float32Array[] = []
    for (let label = 0; label < n; label++) {
      const v = unit(Float32Array.from({ length: dim }, () => random() - 0.5))
      store.set(label, v)
      units.push(v)
    }
    const query = unit(Float32Array.from({ length: dim }, () => random() - 0.5))
    const got = store.search(query, n, n, (label) => `e${label}`)
    const want = ranked(units, query)
    expect(got.map((h) => `e${h.label}`)).toEqual(want.map((h) => h.id))
    expect(scoreGap(got, want)).toBeLessThan(1e-6)
  })

  // 512 takes the SIMD kernel, 6 (not divisible by 4) the JavaScript loop.
  for (const dim of [512, 6]) {
    it(`returns what brute force returns: ids, order, scores (${dim}-d)`, () => {
      const random = prng(dim)
      const vector = () => Float32Array.from({ length: dim }, () => random() - 0.5)
      const n = 1_500
      // Starts small, so the store grows (and relays its memory) several times while filled.
      const store = new FlatVectors(dim, 100)
      const vectors: (Float32Array | null)[] = []
      for (let label = 0; label < n; label++) {
        if (label >= store.capacity) store.grow(store.capacity * 2)
        // Every 50th vector repeats an earlier one: equal scores, ranked by id.
        const v = label % 50 === 49 ? vectors[label - 7]! : vector()
        store.set(label, v)
        vectors.push(v)
      }
      // Some slots are free (no id), as after deletes.
      for (const label of [3, 500, 1499]) vectors[label] = null
      const units = vectors.map((v) => (v === null ? null : unit(v)))
      const idOf = (label: number) => (vectors[label] === null ? null : `e${label}`)
      const odd = (id: string) => Number(id.slice(1)) % 2 === 1
      for (let i = 0; i < 40; i++) {
        // Some queries are stored vectors themselves (score 1, and their duplicates tie).
        // The store takes unit queries (`VectorIndex` scales them).
        const query = unit(i % 4 === 0 ? (vectors[(i * 37 + 42) % n] ?? vector()) : vector())
        const all = ranked(units, query)
        for (const [k, accept] of [
          [5, () => true],
          [50, () => true],
          [10, odd],
          [n + 10, () => true],
        ] as const) {
          const got = store.search(query, k, n, idOf, accept)
          const want = reference(all, k, accept)
          expect(got.map((h) => `e${h.label}`)).toEqual(want.map((h) => h.id))
          expect(scoreGap(got, want)).toBeLessThan(1e-6)
          // `dot` gives a hit the very score the search gave it.
          if (got[0] !== undefined) expect(store.dot(got[0].label, query)).toBe(got[0].score)
        }
      }
      expect(store.search(vector(), 0, n, idOf)).toEqual([])
    })
  }

  it('keeps its vectors across growth and snapshots them as bytes', () => {
    const store = new FlatVectors(8, 2)
    store.set(0, [3, 4, 0, 0, 0, 0, 0, 0])
    store.set(1, [0, 0, 0, 0, 0, 0, 0, 2])
    store.grow(5_000)
    expect(Array.from(store.get(0))).toEqual([0.6, 0.8, 0, 0, 0, 0, 0, 0].map(Math.fround))
    // New slots start at zero, whatever the scratch area held before the growth.
    expect(Array.from(store.get(2))).toEqual(new Array(8).fill(0))
    const copy = FlatVectors.fromBytes(8, 16, store.bytes(2))
    expect(Array.from(copy.get(1))).toEqual([0, 0, 0, 0, 0, 0, 0, 1])
    expect(copy.search(Float32Array.from([0, 0, 0, 0, 0, 0, 0, 1]), 1, 2, (l) => `e${l}`)).toEqual([
      { label: 1, score: 1 },
    ])
  })
})
