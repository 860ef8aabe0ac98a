import { describe, expect, it } from 'vitest'
import { analyze, analyzeBm25, analyzer, normalizeText, tokenize } from './analyze.js'

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

describe('analyzeBm25', () => {
  it('also indexes the letter and digit runs of mixed tokens', () => {
    expect(analyzeBm25('p53 and COVID-19 in T cells')).toEqual([
      'p53',
      'p',
      '53',
      'covid',
      '19',
      't',
      'cell',
    ])
    expect(analyzer({ stopwords: new Set(), splitLettersDigits: false })('p53 cells')).toEqual([
      'p53',
      'cell',
    ])
  })

  it("drops NLTK's stopwords, which Lucene's set leaves in", () => {
    expect(analyzeBm25('What did she do when they won?')).toEqual([])
    expect(analyze('What did she do')).toEqual(['what', 'did', 'she', 'do'])
  })
})
