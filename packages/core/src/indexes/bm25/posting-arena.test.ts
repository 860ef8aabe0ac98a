import { describe, expect, it } from 'vitest'
import { PostingArena } from './posting-arena.js'
import { readPairs } from './vint.js'

const list = (arena: PostingArena, term: number) => [
  ...readPairs(arena.bytes, arena.start[term]!, arena.start[term]! + arena.used[term]!),
]

describe('PostingArena', () => {
  it('keeps interleaved lists intact through block moves, clears and repacking', () => {
    let seed = 11
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const arena = new PostingArena()
    const expected: [number, number][][] = []
    for (let doc = 0; doc < 20_000; doc++) {
      // New terms keep coming; term t is skewed towards the low numbers, as Zipf's law has it.
      if (doc % 10 === 0) expected[arena.addTerm()] = []
      const terms = new Set(
        Array.from({ length: 5 }, () => Math.floor(rand() ** 3 * expected.length)),
      )
      for (const term of terms) {
        const tf = rand() < 0.7 ? 1 : 1 + Math.floor(rand() * 300)
        arena.push(term, doc, tf)
        expected[term]!.push([doc, tf])
      }
      // Now and then a term loses its last document.
      if (doc % 97 === 0) {
        const term = Math.floor(rand() * expected.length)
        arena.clear(term)
        expected[term] = []
      }
    }
    expected.forEach((pairs, term) => expect(list(arena, term)).toEqual(pairs))
    // Holes never outgrow what is live by much: the arena stays within a small factor of the lists.
    const live = expected.reduce((sum, _, term) => sum + arena.used[term]!, 0)
    expect(arena.bytes.length).toBeLessThan(4 * live)
  })

  it('lays out blocks of known sizes back to back', () => {
    const arena = PostingArena.sized(2, Uint32Array.from([2, 1]))
    arena.push(1, 0, 1)
    arena.push(0, 3, 1)
    arena.push(0, 5, 1)
    expect([arena.start[0], arena.start[1]]).toEqual([0, 2])
    expect(list(arena, 0)).toEqual([
      [3, 1],
      [5, 1],
    ])
    expect(list(arena, 1)).toEqual([[0, 1]])
  })
})
