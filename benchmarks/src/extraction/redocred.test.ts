import { describe, expect, it } from 'vitest'
import { hardWrap } from './redocred.js'

describe('hardWrap', () => {
  const text =
    'Martin Ulrich is a German footballer who played for the Stuttgart Kickers in the Bundesliga. ' +
    'He was born in Berlin and joined the club from Hertha BSC when he was nineteen years old.'

  it('fills each line up to the width, breaking at spaces only', () => {
    for (const columns of [20, 40, 72]) {
      const wrapped = hardWrap(text, columns)
      const lines = wrapped.split('\n')
      expect(wrapped.replace(/\n/g, ' ')).toBe(text)
      expect(lines.length).toBeGreaterThan(1)
      expect(lines.every((l) => l.length <= columns)).toBe(true)
      // Greedy: the next line's first word would not have fitted.
      for (let i = 0; i + 1 < lines.length; i++)
        expect(lines[i]!.length + 1 + lines[i + 1]!.split(' ')[0]!.length).toBeGreaterThan(columns)
    }
  })

  it('leaves a word longer than the width alone on its line, and a short text as it is', () => {
    expect(hardWrap('see https://example.org/a/very/long/path now', 10)).toBe(
      'see\nhttps://example.org/a/very/long/path\nnow',
    )
    expect(hardWrap('short text', 72)).toBe('short text')
  })
})
