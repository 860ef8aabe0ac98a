/**
 * Mulberry32 (Tommy Ettinger, public domain): a small, fast, seedable 32-bit generator in [0, 1), so
 * that what draws from it (Louvain's visiting order, test data) is the same on every run.
 */
export function mulberry32(seed: number): () => number {
  let state = seed | 0
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
