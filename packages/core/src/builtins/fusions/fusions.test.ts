import { describe, expect, it } from 'vitest'
import type { ChannelList } from '../../contracts/search-plugins.js'
import { PluginRegistry } from '../../registry/plugin-registry.js'
import type { EngramError } from '../../errors.js'
import { convexCombination } from './convex-combination.js'
import { noFusion } from './no-fusion.js'
import { rrf } from './reciprocal-rank.js'

const bm25: ChannelList = {
  name: 'bm25',
  signal: 'bm25',
  items: [
    { id: 'a', score: 10 },
    { id: 'b', score: 5 },
    { id: 'c', score: 0 },
  ],
}
const dense: ChannelList = {
  name: 'dense',
  signal: 'dense',
  items: [
    { id: 'b', score: 0.9 },
    { id: 'd', score: 0.5 },
  ],
}

describe('fusions', () => {
  it('rrf sums 1/(60 + rank)', () => {
    const fused = rrf().fuse([bm25, dense], {})
    // b: 1/62 + 1/61; a: 1/61; d: 1/62; c: 1/63
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c'])
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12)
    expect(rrf().fuse([bm25], {})[0]!.score).toBeCloseTo(1 / 61, 12)
  })

  it('cc blends min-max scores with alpha', () => {
    const fused = convexCombination().fuse([bm25, dense], { alpha: 0.5 })
    // min-max with an absent id one mean gap below the lowest: bm25 (absent -5) a 1, b 2/3, c 1/3;
    // dense (absent .1) b 1, d .5 -> b 5/6, a .5, d .25, c 1/6
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c'])
    const scores = fused.map((f) => f.score)
    for (const [i, want] of [5 / 6, 0.5, 0.25, 1 / 6].entries())
      expect(scores[i]).toBeCloseTo(want, 12)
    expect(convexCombination().fuse([bm25, dense], { alpha: 1 })[0]!.id).toBe('b')
  })

  it('none keeps list order and first positions', () => {
    expect(
      noFusion()
        .fuse([dense, bm25], {})
        .map((f) => f.id),
    ).toEqual(['b', 'd', 'a', 'c'])
  })

  it('the registry refuses duplicates, freezes, and names loaded plugins on a miss', () => {
    const registry = new PluginRegistry().register(rrf()).register(convexCombination())
    expect(() => registry.register(rrf())).toThrow(/already registered/)
    registry.freeze()
    expect(() => registry.register(noFusion())).toThrow(/frozen/)
    const error = (() => {
      try {
        registry.resolve('fusion', 'linear')
      } catch (e) {
        return e as EngramError
      }
    })()!
    expect(error.status).toBe(400)
    expect(error.message).toContain('cc, rrf')
  })
})
