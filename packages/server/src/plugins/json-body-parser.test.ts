import { describe, expect, it } from 'vitest'
import { jsonNestsDeeperThan } from './json-body-parser.js'

describe('jsonNestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonNestsDeeperThan('{"a":[1,{"b":[]}]}', 4)).toBe(false)
    expect(jsonNestsDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true)
    expect(jsonNestsDeeperThan('{"a":"[[[[[[{{{{{"}', 1)).toBe(false)
    expect(jsonNestsDeeperThan('[' + '"x",'.repeat(1000) + '1]', 1)).toBe(false)
  })

  it('handles escaped quotes and runs of backslashes', () => {
    // "\"[[[" is one string; "\\" ends at its second quote, so the brackets after it count.
    expect(jsonNestsDeeperThan(String.raw`{"a":"\"[[[[["}`, 1)).toBe(false)
    expect(jsonNestsDeeperThan(String.raw`{"a":"\\",  "b":[[[]]]}`, 3)).toBe(true)
    expect(jsonNestsDeeperThan(String.raw`{"a":"\\\"[[[["}`, 1)).toBe(false)
  })

  it('stops at the first level past the limit, whatever follows', () => {
    const deep = '['.repeat(1_000_000)
    expect(jsonNestsDeeperThan(deep, 64)).toBe(true)
    expect(jsonNestsDeeperThan('[]'.repeat(1_000_000), 1)).toBe(false)
  })

  it('leaves malformed text to the parser (an unterminated string is not "too deep")', () => {
    expect(jsonNestsDeeperThan('{"a":"[[[[[[', 2)).toBe(false)
  })

  it('stays linear on 10 MB bodies, text or structure (timings logged)', () => {
    const bodies = {
      text: JSON.stringify({ text: 'lorem ipsum "dolor" sit amet \\ '.repeat(330_000) }),
      structure: JSON.stringify({
        data: Array.from({ length: 120_000 }, (_, i) => ({
          object: { name: `n${i}`, type: 'T', properties: { a: [1, 2, { b: 'x' }] } },
        })),
      }),
      escapes: JSON.stringify({ text: '"\\'.repeat(2_500_000) }),
    }
    for (const [name, body] of Object.entries(bodies)) {
      let start = performance.now()
      expect(jsonNestsDeeperThan(body, 64)).toBe(false)
      const scan = performance.now() - start
      start = performance.now()
      JSON.parse(body)
      const parse = performance.now() - start
      console.log(
        `depth scan of ${(body.length / 1e6).toFixed(1)}M chars (${name}): ${scan.toFixed(1)} ms; JSON.parse ${parse.toFixed(1)} ms`,
      )
      // Quadratic behaviour (e.g. rescanning backslashes) would take minutes here.
      expect(scan).toBeLessThan(5_000)
    }
  })
})
