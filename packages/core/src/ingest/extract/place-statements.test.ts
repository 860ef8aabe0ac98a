import { describe, expect, it } from 'vitest'
import { placeCanBeSubject, placeStatements, type ClauseMention } from './place-statements.js'

/** Mentions of `names` (each found at its first occurrence after the previous one) in `sentence`. */
function mentionsOf(sentence: string, names: [string, string][]): ClauseMention[] {
  let from = 0
  return names.map(([name, label]) => {
    const start = sentence.indexOf(name, from)
    from = start + name.length
    return { name, label, start, end: from }
  })
}

describe('placeCanBeSubject', () => {
  it('rejects a place behind a preposition and accepts one heading the clause', () => {
    expect(placeCanBeSubject('In ')).toBe(false)
    expect(placeCanBeSubject('He was born in the ')).toBe(false)
    expect(placeCanBeSubject('')).toBe(true)
    expect(placeCanBeSubject("Cumbria's county town, ")).toBe(true)
  })
})

describe('placeStatements', () => {
  it('reads the places a place lies in and the object of its verb', () => {
    const sentence =
      'Foots Creek is a community of the Rogue Valley in Jackson County, in the state of Oregon.'
    const mentions = mentionsOf(sentence, [
      ['Foots Creek', 'PLACE'],
      ['community', 'CONCEPT'],
      ['Rogue Valley', 'CONCEPT'],
      ['Jackson County', 'PLACE'],
      ['state', 'CONCEPT'],
      ['Oregon', 'PLACE'],
    ])
    const named = (m: ClauseMention) => m.label !== 'CONCEPT' || /^\p{Lu}/u.test(m.name)
    const verbEnd = sentence.indexOf(' a ')
    expect(placeStatements(sentence, mentions, 0, verbEnd, named)).toEqual([
      { object: 2, located: false },
      { object: 3, located: true },
      { object: 5, located: true },
    ])
  })

  it('relates nothing before the verb and not the place to itself', () => {
    const sentence = 'Near Paris, Paris Basin lies under Paris.'
    const mentions = mentionsOf(sentence, [
      ['Paris', 'PLACE'],
      ['Paris Basin', 'PLACE'],
      ['Paris', 'PLACE'],
    ])
    expect(placeStatements(sentence, mentions, 1, sentence.indexOf(' under'), () => true)).toEqual([
      { object: 2, located: false },
    ])
    const self = mentionsOf('Lund is in Lund.', [
      ['Lund', 'PLACE'],
      ['Lund', 'PLACE'],
    ])
    expect(placeStatements('Lund is in Lund.', self, 0, 7, () => true)).toEqual([])
  })
})
