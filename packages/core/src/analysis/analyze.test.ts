import { describe, expect, it } from 'vitest'
import { analyze, normalizeText, tokenize } from './analyze.js'

describe('analysis', () => {
  it('normalises case, width and diacritics', () => {
    expect(normalizeText('Café ＡＢＣ Straße')).toBe('cafe abc straße')
  })

  it('tokenizes words and numbers and drops possessives', () => {
    expect(tokenize("Emily's AI-Ethics meetup, March 8, 2024!")).toEqual([
      'emily',
      'ai',
      'ethics',
      'meetup',
      'march',
      '8',
      '2024',
    ])
  })

  it('removes Lucene English stopwords and applies Porter2', () => {
    expect(analyze('The cats are running into the generously organized meetings')).toEqual([
      'cat',
      'run',
      'generous',
      'organ',
      'meet',
    ])
    expect(analyze('')).toEqual([])
  })
})
