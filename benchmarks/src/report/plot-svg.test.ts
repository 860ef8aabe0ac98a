import { describe, expect, it } from 'vitest'
import { plotQualityVsLatency } from './plot-svg.js'

describe('plotQualityVsLatency', () => {
  it('draws one marker per point, circles for Engram and squares for peers, in one panel per dataset', () => {
    const svg = plotQualityVsLatency(
      [
        {
          dataset: 'a',
          system: 'engram bm25',
          metric: 'nDCG@10',
          quality: 0.68,
          latencyMs: 2,
          role: 'engram',
        },
        {
          dataset: 'a',
          system: 'fts5 <x>',
          metric: 'nDCG@10',
          quality: 0.6,
          latencyMs: 7,
          role: 'peer',
        },
        { dataset: 'b', system: 'p', metric: 'R@5', quality: 0.5, latencyMs: 0.2, role: 'peer' },
      ],
      'note',
    )
    expect(svg.startsWith('<svg')).toBe(true)
    expect(svg.match(/<circle /g)).toHaveLength(1)
    expect(svg.match(/<rect x="[^"]+" y="[^"]+" width="8"/g)).toHaveLength(2)
    expect(svg).toContain('a (nDCG@10)')
    expect(svg).toContain('b (R@5)')
    expect(svg).toContain('fts5 &lt;x&gt;')
    expect(svg).not.toContain('NaN')
  })
})
