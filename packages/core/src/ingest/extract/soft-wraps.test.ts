import { describe, expect, it } from 'vitest'
import { joinSoftWraps } from './soft-wraps.js'

/** Greedy wrapping at `width` columns, a space at each break becoming a line break (offsets kept). */
function wrap(text: string, width: number): string {
  const out = text.split('')
  let lineStart = 0
  let lastSpace = -1
  for (let i = 0; i < out.length; i++) {
    if (out[i] === ' ') lastSpace = i
    if (i - lineStart >= width && lastSpace > lineStart) {
      out[lastSpace] = '\n'
      lineStart = lastSpace + 1
    }
  }
  return out.join('')
}

const join = (text: string) => joinSoftWraps(text, text)

const paragraph =
  'Martin Ulrich is a German footballer who played for Hertha BSC and the Stuttgart Kickers. ' +
  'He was born in Berlin and moved to Stuttgart as a boy, where Dr. Anna Weber coached him until 1988.'

describe('joinSoftWraps', () => {
  it('reads a paragraph wrapped at any common width as the unwrapped paragraph', () => {
    for (const width of [60, 72, 80, 115]) {
      const wrapped = wrap(paragraph, width)
      expect(wrapped).toContain('\n')
      expect(join(wrapped)).toBe(paragraph)
    }
  })

  it('keeps a list of short lines, and a break the next word would have fitted before', () => {
    const list = 'Attendees\nAda Lovelace\nCharles Babbage\nMary Somerville'
    expect(join(list)).toBe(list)
    const short =
      'This first line is long enough to be wrapped text.\nBut this second line is a good deal longer than the first one.'
    expect(join(short)).toBe(short)
  })

  it('keeps the breaks before list items, headings, quotes, tables and labelled lines', () => {
    const long = 'A line long enough that a wrapper could have broken it, without a full stop'
    for (const next of [
      '- Ada Lovelace',
      '* Ada',
      '1. Ada',
      '1) Ada',
      '# Ada',
      '> Ada said so',
      '| Ada | 1815 |',
      'Caroline: Nice!',
      "Dr. O'Brien: Yes.",
      'City: London',
    ])
      expect(join(`${long}\n${next} and a few more words after it`)).toContain('\n')
    expect(join(`# ${long}\nAda Lovelace`)).toContain('\n')
    expect(join(`| ${long} |\n| Ada |`)).toContain('\n')
    // A list's later items, numbered on from its first.
    const list = `1. ${long}\n2. ${long}\n3. and more words`
    expect(join(list)).toBe(list)
  })

  it('joins a break before a number ending a sentence and before a small word and a colon', () => {
    const year =
      'Shihlin Electric was founded in Taipei by a group of engineers, in\n1955. The company is listed.'
    expect(join(year)).toBe(year.replace('\n', ' '))
    const colon =
      'They married in Montreal in the spring of that year and had four\nchildren: Paul, Anne and Marie.'
    expect(join(colon)).toBe(colon.replace('\n', ' '))
  })

  it('keeps blank lines and lines the mask blanked, and joins CRLF breaks offset for offset', () => {
    const twoParagraphs = `${wrap(paragraph, 72)}\n\n${wrap(paragraph, 72)}`
    expect(join(twoParagraphs)).toBe(`${paragraph}\n\n${paragraph}`)
    const long = 'A line long enough that a wrapper could have broken it, without a full stop'
    const code = `${long}\nconst x = 1`
    expect(joinSoftWraps(code, `${long}\n           `)).toBe(`${long}\n           `)
    const crlf = wrap(paragraph, 72).replace(/\n/g, '\r\n')
    const joined = join(crlf)
    expect(joined).toHaveLength(crlf.length)
    expect(joined.replace(/\s+/g, ' ')).toBe(paragraph)
  })

  it('changes nothing in a text without line breaks, or when the masked text is not its length', () => {
    expect(join(paragraph)).toBe(paragraph)
    expect(joinSoftWraps(wrap(paragraph, 72), 'other')).toBe('other')
  })
})
