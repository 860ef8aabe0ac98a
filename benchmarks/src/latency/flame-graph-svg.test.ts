import { describe, expect, it } from 'vitest'
import { flameGraphSvg } from './flame-graph-svg.js'

describe('flameGraphSvg', () => {
  it('draws each frame as wide as its inclusive weight, children under their parent', () => {
    const svg = flameGraphSvg('a;b 30\na;c 10\nd 60', 'test')
    // 100 units over 1200 px: all 1200, a 480 (b 360 then c 120 beside it), d 720 after a.
    expect(svg).toContain('<title>all (100.00%)</title><rect x="0.00" y="24" width="1200.00"')
    expect(svg).toContain('<title>a (40.00%)</title><rect x="0.00" y="40" width="480.00"')
    expect(svg).toContain('<title>b (30.00%)</title><rect x="0.00" y="56" width="360.00"')
    expect(svg).toContain('<title>c (10.00%)</title><rect x="360.00" y="56" width="120.00"')
    expect(svg).toContain('<title>d (60.00%)</title><rect x="480.00" y="40" width="720.00"')
  })

  it('escapes frame names', () => {
    expect(flameGraphSvg('<anon> & co 1', 't')).toContain('&lt;anon&gt; &amp; co (100.00%)')
  })
})
