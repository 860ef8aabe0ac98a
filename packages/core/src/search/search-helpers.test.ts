import { describe, expect, it } from 'vitest'
import { makeSnippet, MAX_SNIPPET, snippetMaker } from './snippet.js'
import { extrasOf, facetsOf, matchesExtras } from './extras.js'
import { blendPreferences, personalizationWeight } from '../builtins/stages/personalization-gate.js'
import { mergeByScore } from './pipeline/merge-by-score.js'

describe('snippets', () => {
  it('keeps short text and cuts long text to at most 240 characters around the first query term', () => {
    expect(makeSnippet('  short   text ')).toBe('short text')
    const long = `${'alpha '.repeat(80)}needle ${'omega '.repeat(80)}`
    const snippet = makeSnippet(long, ['needle'])
    expect(snippet.length).toBeLessThanOrEqual(MAX_SNIPPET)
    expect(snippet).toContain('needle')
    expect(snippet.startsWith('…')).toBe(true)
    expect(makeSnippet('x'.repeat(1000)).length).toBeLessThanOrEqual(MAX_SNIPPET)
  })

  it('collapses every kind of whitespace run to one space and centres on the earliest term', () => {
    expect(makeSnippet(' a\t\tb \n c\u00a0 d  e\r\nf ')).toBe('a b c d e f')
    const long = `${'filler words here '.repeat(20)}second\n\n first ${'tail text '.repeat(40)}`
    // 'first' is listed first but occurs after 'second': the window starts at the earliest one.
    const snippet = makeSnippet(long, ['first', 'second', 'absent'])
    expect(snippet.length).toBeLessThanOrEqual(MAX_SNIPPET)
    expect(snippet).toContain('second first tail')
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippetMaker(['First'])(long)).toBe(makeSnippet(long, ['first']))
  })
})

describe('extras and facets', () => {
  it('keeps scalar metadata, hides internal ids and filters case-insensitively', () => {
    const extras = extrasOf({
      dia_id: 'D1:3',
      uuid: 'x',
      resource_id: 'y',
      nested: { a: 1 },
      empty: '',
      n: 2,
    })
    expect(extras).toEqual({ dia_id: 'D1:3', n: 2 })
    expect(matchesExtras(extras, { DIA_ID: 'd1:3' })).toBe(true)
    expect(matchesExtras(extras, { dia_id: 'D1:4' })).toBe(false)
    expect(facetsOf([{ extras }, { extras: { dia_id: 'D1:3' } }])).toEqual({
      dia_id: { 'D1:3': 2 },
      n: { '2': 1 },
    })
  })
})

describe('personalization', () => {
  it('gates by query specificity', () => {
    expect(personalizationWeight('shoes')).toBe(0.85)
    expect(personalizationWeight('red shoes')).toBe(0.5)
    expect(personalizationWeight('shoes size 42')).toBe(0)
    expect(personalizationWeight('the')).toBe(0)
  })

  it('counts content words: request words and the shared English stop set are not', () => {
    // Same as with the gate's former own list.
    expect(personalizationWeight('show me some shoes')).toBe(0.85)
    expect(personalizationWeight('boots for the winter')).toBe(0.5)
    expect(personalizationWeight('I want to find red leather boots')).toBe(0.25)
    expect(personalizationWeight('get my running shoes from nike')).toBe(0.25)
    expect(personalizationWeight('running shoes with arch support and wide toe')).toBe(0.1)
    // Lucene stopwords the former list lacked now count as stopwords too (were 0.25, 0.1, 0.5).
    expect(personalizationWeight('shoes that fit')).toBe(0.5)
    expect(personalizationWeight('they will go into the sea')).toBe(0.5)
    expect(personalizationWeight('this is not it')).toBe(0)
  })

  it('blends without dropping hits and keeps order when there is no signal', () => {
    const hits = [
      { id: 'a', score: 3 },
      { id: 'b', score: 2 },
      { id: 'c', score: 1 },
    ]
    expect(blendPreferences(hits, [0, 0, 0], 0.85).map((x) => x.hit.id)).toEqual(['a', 'b', 'c'])
    // r = [1, .5, 0], p = [0, 0, 1]; λ = .85 -> a .15, b .075, c .85
    expect(blendPreferences(hits, [0, 0, 5], 0.85).map((x) => x.hit.id)).toEqual(['c', 'a', 'b'])
  })
})

describe('neighbour expansion merge', () => {
  it('interleaves neighbours by score, fused first on ties, so they can reach the top k', () => {
    const fused = [
      { id: 'a', score: 0.5 },
      { id: 'b', score: 0.3 },
      { id: 'c', score: 0.1 },
    ]
    const neighbours = [
      { id: 'n1', score: 0.3 },
      { id: 'n2', score: 0.2 },
    ]
    expect(mergeByScore(fused, neighbours).map((c) => c.id)).toEqual(['a', 'b', 'n1', 'n2', 'c'])
    expect(mergeByScore(fused, []).map((c) => c.id)).toEqual(['a', 'b', 'c'])
    expect(mergeByScore([], neighbours).map((c) => c.id)).toEqual(['n1', 'n2'])
  })
})
