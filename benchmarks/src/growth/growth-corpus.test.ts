import { describe, expect, it } from 'vitest'
import { parseCliArgs } from '../cli-args.js'
import { growthUnits, growthWord } from './growth-corpus.js'
import { OP_GROWTH_SIZES } from './op-growth-result.js'
import { repsAt } from './run-op-growth.js'

describe('growth corpus', () => {
  it('gives every n its own word', () => {
    const words = new Set(Array.from({ length: 20_000 }, (_, n) => growthWord(n)))
    expect(words.size).toBe(20_000)
  })

  it('is the same brain for the same seed', () => {
    const a = growthUnits(3)
    const b = growthUnits(3)
    for (let i = 0; i < 50; i++) expect(a(i)).toEqual(b(i))
  })

  it('keeps degrees stationary: no person or place becomes a hub as the brain grows', () => {
    const unit = growthUnits()
    const people = new Map<string, number>()
    const places = new Map<string, number>()
    for (let i = 0; i < 30_000; i++) {
      const u = unit(i)
      people.set(u.person, (people.get(u.person) ?? 0) + 1)
      places.set(u.place, (places.get(u.place) ?? 0) + 1)
    }
    const max = (m: Map<string, number>) => Math.max(...m.values())
    const mean = (m: Map<string, number>) => 30_000 / m.size
    expect(mean(people)).toBeGreaterThan(2.5)
    expect(mean(people)).toBeLessThan(3.5)
    expect(max(people)).toBeLessThan(20)
    expect(mean(places)).toBeGreaterThan(9)
    expect(max(places)).toBeLessThan(40)
  })
})

describe('--op-growth', () => {
  it('defaults to the sizes of issue 29 and takes a list', () => {
    expect(parseCliArgs(['--op-growth']).opGrowth).toEqual(OP_GROWTH_SIZES)
    expect(parseCliArgs(['--op-growth', '500,2000']).opGrowth).toEqual([500, 2000])
    expect(parseCliArgs([]).opGrowth).toBeNull()
    expect(() => parseCliArgs(['--op-growth', '0'])).toThrow(/positive/)
  })

  it('times fewer requests as the brain grows', () => {
    expect(repsAt(1000)).toBe(40)
    expect(repsAt(100_000)).toBeLessThan(repsAt(10_000))
    expect(repsAt(100_000)).toBeGreaterThanOrEqual(5)
  })
})
