import { describe, expect, it } from 'vitest'
import { BM25_VARIANTS, Bm25Index } from '../indexes/bm25/bm25-index.js'
import {
  documentFrequency,
  MAX_TERM_SHARE,
  MIN_CAPPED_DF,
  selectiveNameQuery,
} from './synergies-name-terms.js'

/** A letters-only word unique per i, stemmed to itself (digits would be split off by the analysis). */
const word = (i: number) =>
  'q' + [...i.toString(19)].map((c) => 'bcdfghjklmnpqrtvwxz'[parseInt(c, 19)]).join('') + 'ox'

/** `places` names "<word i> Street" (each with its own word) plus `others` names of other words. */
function names(places: number, others: number, variant: (typeof BM25_VARIANTS)[number]) {
  const index = new Bm25Index({ variant })
  for (let i = 0; i < places; i++) index.add(`p${i}`, `${word(i)} Street`)
  for (let i = 0; i < others; i++) index.add(`o${i}`, `${word(100_000 + i)} Other`)
  return index
}

describe('documentFrequency', () => {
  it.each(BM25_VARIANTS)('inverts the idf of %s', (variant) => {
    const index = names(70, 130, variant)
    const [street] = index.termWeights('Street')
    expect(documentFrequency(variant, street!.idf, index.size)).toBe(70)
    const [one] = index.termWeights(word(3))
    expect(documentFrequency(variant, one!.idf, index.size)).toBe(1)
  })
})

describe('selectiveNameQuery', () => {
  it('keeps the whole name while no term is in more than the cap of names', () => {
    // 200 names, "street" in 40: under MIN_CAPPED_DF, so the query is the name as it was.
    expect(MIN_CAPPED_DF).toBeGreaterThan(40)
    expect(selectiveNameQuery(names(40, 160, 'bm25+'), `${word(3)} Street`)).toBe(
      `${word(3)} Street`,
    )
  })

  it('drops a word held by more than the cap of names, keeping the selective one', () => {
    // 10,000 names, "street" in 5,000 (> 1% and > 50): left out; word(3) (df 1) stays.
    const index = names(5000, 5000, 'bm25+')
    expect(5000).toBeGreaterThan(MAX_TERM_SHARE * index.size)
    expect(selectiveNameQuery(index, `${word(3)} Street`)).toBe(word(3))
    expect(
      index.search(selectiveNameQuery(index, `${word(3)} Street`), 11).map((h) => h.id),
    ).toEqual(['p3'])
    // A name of common words only queries nothing.
    expect(selectiveNameQuery(index, 'Street Other')).toBe('')
  })
})
