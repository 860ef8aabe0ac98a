/** A seeded pseudo-random source, so that a failing case of the run can be replayed from its seed. */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number
  /** True with probability `p`. */
  chance(p: number): boolean
  /** An integer in [min, max]. */
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
}

/** mulberry32 (Tommy Ettinger, public domain): 32 bits of state, good enough for test inputs. */
export function prng(seed: number): Prng {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    chance: (p) => next() < p,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  }
}

/** The seed of case `index` of a run: each case replays alone, whatever ran before it. */
export function caseSeed(runSeed: number, index: number): number {
  return (Math.imul(runSeed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0
}
