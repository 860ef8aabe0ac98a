import { describe, expect, it } from 'vitest'
import { movesCorpus } from './moves-corpus.js'

describe('movesCorpus', () => {
  const corpus = movesCorpus({ people: 30, homes: 3, employers: 2 })

  it('gives every person homes then moves and employers, dated in order, each a task', () => {
    expect(corpus.people).toHaveLength(30)
    expect(corpus.tasks).toHaveLength(150)
    for (const p of corpus.people) {
      const texts = p.statements.map((s) => s.text)
      expect(texts.filter((t) => t.includes(' lives in '))).toHaveLength(1)
      expect(texts.filter((t) => t.includes(' moved to '))).toHaveLength(2)
      expect(texts.filter((t) => t.includes(' works for '))).toHaveLength(2)
      // The first home is stated before any move.
      const firstHome = texts.findIndex((t) => t.includes(' lives in '))
      expect(texts.findIndex((t) => t.includes(' moved to '))).toBeGreaterThan(firstHome)
      const at = p.statements.map((s) => Date.parse(s.at))
      for (let i = 1; i < at.length; i++)
        expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(60 * 86_400_000)
      expect(new Set(corpus.people.map((q) => q.name)).size).toBe(30)
    }
  })

  it('is the same every run and arrives out of event-time order', () => {
    expect(movesCorpus({ people: 30, homes: 3, employers: 2 })).toEqual(corpus)
    const times = corpus.tasks.map((t) => t.payload.sourceTimestamp)
    expect(times).not.toEqual([...times].sort())
    expect(new Set(corpus.tasks.map((t) => t.brainId))).toEqual(new Set(['moves']))
  })

  it('never repeats the current home or employer', () => {
    for (const p of corpus.people) {
      const homes = p.statements.filter((s) => !s.text.includes(' works for '))
      const cities = homes.map((s) => s.text.split(' ').at(-1))
      for (let i = 1; i < cities.length; i++) expect(cities[i]).not.toBe(cities[i - 1])
    }
  })
})
