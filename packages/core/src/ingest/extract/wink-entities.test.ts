import { describe, expect, it } from 'vitest'
import { winkEntities } from './wink-entities.js'

const SENTENCE = 'He was commander of St. Vincent from 1794 to 1796.'

describe('winkEntities', () => {
  // Module state is the point here: this file's tests run in order in one module instance.
  it('finds a span of years as a duration', () => {
    expect(winkEntities(SENTENCE)).toContainEqual({ value: 'from 1794 to 1796', type: 'DURATION' })
  })

  it('gives a sentence the same entities after a text that splits one of its numbers from a word', () => {
    // "c.1796" is split at its period; wink-nlp cached the piece "1796" as a word, for good.
    const before = winkEntities('A sentence about 1,2 and 5.5 with no year before it.')
    winkEntities('Thomas Bevan (c.1796 – 31 January 1819) was a Welsh missionary.')
    winkEntities('c.1795 and No.1797 and v.1796')
    expect(winkEntities(SENTENCE)).toContainEqual({ value: 'from 1794 to 1796', type: 'DURATION' })
    expect(winkEntities('He served from 1795 to 1797.')).toContainEqual({
      value: 'from 1795 to 1797',
      type: 'DURATION',
    })
    expect(winkEntities('A sentence about 1,2 and 5.5 with no year before it.')).toEqual(before)
  })

  it('reads the split number itself as the number it is', () => {
    expect(winkEntities('Bevan (c.1798 – 31 January 1819)').map((e) => e.value)).toContain(
      '1798 – 31 January 1819',
    )
  })
})
