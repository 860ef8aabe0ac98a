import { describe, expect, it } from 'vitest'
import { mulberry32 } from '../seeded-random.js'
import { clipText, oneSpaced } from './one-spaced.js'

describe('oneSpaced', () => {
  it('equals replacing every whitespace run with one space and trimming', () => {
    const random = mulberry32(7)
    const pieces = [
      'a',
      'word',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '\u00a0',
      '\u2028',
      ' \n ',
      'é',
      '…',
    ]
    for (let i = 0; i < 500; i++) {
      const text = Array.from(
        { length: Math.floor(random() * 40) },
        () => pieces[Math.floor(random() * pieces.length)]!,
      ).join('')
      expect(oneSpaced(text), JSON.stringify(text)).toBe(text.replace(/\s+/g, ' ').trim())
    }
  })

  it('clips to the limit with an ellipsis as its last character', () => {
    expect(clipText('  one\n\ntwo  three ', 100)).toBe('one two three')
    expect(clipText('one two three', 7)).toBe('one tw…')
    expect(clipText('one two', 7)).toBe('one two')
  })
})
