import { describe, expect, it } from 'vitest'
import { mulberry32 } from '../seeded-random.js'
import { MAX_SNIPPET, snippetMaker } from './snippet.js'

/** The snippet as defined before windowing: clean the whole text, then cut around the first term. */
function reference(text: string, queryTerms: readonly string[]): string {
  const terms = [...new Set(queryTerms.filter((t) => t.length >= 3).map((t) => t.toLowerCase()))]
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= MAX_SNIPPET) return clean
  const lower = clean.toLowerCase()
  let at = -1
  for (const term of terms) {
    const i = lower.indexOf(term)
    if (i >= 0 && (at < 0 || i < at)) at = i
  }
  let start = at < 0 ? 0 : Math.max(0, at - 60)
  if (start > 0) {
    const space = clean.indexOf(' ', start)
    start = space >= 0 && space < at ? space + 1 : start
  }
  const prefix = start > 0 ? '…' : ''
  const budget = MAX_SNIPPET - prefix.length - 1
  let body = clean.slice(start, start + budget)
  if (start + budget < clean.length) {
    const space = body.lastIndexOf(' ')
    if (space > budget * 0.6) body = body.slice(0, space)
    return `${prefix}${body}…`
  }
  return `${prefix}${clean.slice(start, start + MAX_SNIPPET - prefix.length)}`
}

describe('snippets of long texts (cleaned around the first term only)', () => {
  it('equal the snippets of the wholly cleaned text', () => {
    const random = mulberry32(240)
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!
    const words = ['cell', 'protein', 'of', 'a', 'Gene', 'expression', 'in', 'mice', 'T-cells', 'x']
    const gaps = [' ', ' ', ' ', ' ', '  ', '\n', '\n\n', '\t', ' \u00a0 ', '\r\n', '   \n  ']
    let windowed = 0
    for (let n = 0; n < 3000; n++) {
      // Lengths around the windowing threshold and far past it, whitespace runs of every kind, the
      // terms anywhere (start, middle, end) or absent, whitespace-heavy texts whose cleaned form is short.
      const count = Math.floor(random() * 400)
      // Runs of 1-30 spaces clean to short texts; of 2-4, to windows that need a second reach.
      const run = random() < 0.1 ? 30 : random() < 0.2 ? 3 : 0
      const parts: string[] = random() < 0.2 ? [pick(gaps)] : []
      for (let w = 0; w < count; w++) {
        parts.push(random() < 0.01 ? 'NEEDLE' : pick(words))
        parts.push(
          run > 0 ? ' '.repeat(1 + Math.floor(random() * run) + (run === 3 ? 1 : 0)) : pick(gaps),
        )
      }
      const text = parts.join('')
      const terms = pick([[], ['needle'], ['needle', 'mice'], ['absent'], ['expression', 'needle']])
      if (text.length > 3 * MAX_SNIPPET) windowed++
      expect([text, terms, snippetMaker(terms)(text)]).toEqual([
        text,
        terms,
        reference(text, terms),
      ])
    }
    expect(windowed).toBeGreaterThan(1000)
  })
})

describe('the first query word of a snippet', () => {
  it('is found in the text itself, in any case, where lower-casing would change its offsets', () => {
    // "İ" lower-cases to two characters: offsets in a lower-cased copy run ahead of the text's.
    const text = `${'İİİİ '.repeat(60)}about the Lighthouse keeper ${'and more words '.repeat(60)}`
    const snippet = snippetMaker(['lighthouse'])(text)
    expect(snippet).toContain('Lighthouse keeper')
    expect(snippet.startsWith('…')).toBe(true)
    // A word with characters special to regular expressions is matched literally.
    expect(
      snippetMaker(['c++'])(`${'x '.repeat(200)}uses C++ daily ${'y '.repeat(200)}`),
    ).toContain('C++ daily')
  })
})
