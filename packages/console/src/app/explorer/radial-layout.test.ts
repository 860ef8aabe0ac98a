import { describe, expect, it } from 'vitest'
import { radialLayout, ringAround } from './radial-layout.js'

const radius = (p: { x: number; y: number }) => Math.hypot(p.x, p.y)

describe('radialLayout', () => {
  it('puts the root at the centre and each hop on its ring', () => {
    const parentOf = new Map<string, string | null>([
      ['a', 'root'],
      ['b', 'root'],
      ['a1', 'a'],
      ['a2', 'a'],
      ['b1', 'b'],
    ])
    const at = radialLayout('root', parentOf, 100)
    expect(at.get('root')).toEqual({ x: 0, y: 0 })
    expect(radius(at.get('a')!)).toBeCloseTo(100)
    expect(radius(at.get('b')!)).toBeCloseTo(100)
    for (const n of ['a1', 'a2', 'b1']) {
      expect(radius(at.get(n)!)).toBeGreaterThan(160)
      expect(radius(at.get(n)!)).toBeLessThan(240)
    }
    // Children sit inside their parent's wedge: a's children are nearer a than b.
    const d = (p: string, q: string) =>
      Math.hypot(at.get(p)!.x - at.get(q)!.x, at.get(p)!.y - at.get(q)!.y)
    expect(d('a1', 'a')).toBeLessThan(d('a1', 'b'))
    expect(d('b1', 'b')).toBeLessThan(d('b1', 'a'))
  })

  it('places unreached nodes outside every ring and is deterministic', () => {
    const parentOf = new Map<string, string | null>([
      ['a', 'root'],
      ['lost', null],
    ])
    const first = radialLayout('root', parentOf, 100)
    expect(radius(first.get('lost')!)).toBeGreaterThan(radius(first.get('a')!))
    expect(radialLayout('root', parentOf, 100)).toEqual(first)
  })

  it('lays out 10,000 nodes in linear time', () => {
    const parentOf = new Map<string, string | null>()
    for (let i = 0; i < 10_000; i++) parentOf.set(`n${i}`, i < 100 ? 'root' : `n${i % 100}`)
    const started = performance.now()
    const at = radialLayout('root', parentOf)
    expect(at.size).toBe(10_001)
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe('ringAround', () => {
  it('gives one spot per new node at the gap from the centre', () => {
    const spots = ringAround({ x: 100, y: 0 }, 30, 40)
    expect(spots).toHaveLength(30)
    expect(Math.hypot(spots[0]!.x - 100, spots[0]!.y)).toBeCloseTo(40)
    // 24 on the first ring, the rest on the second.
    expect(Math.hypot(spots[29]!.x - 100, spots[29]!.y)).toBeCloseTo(80)
  })
})
