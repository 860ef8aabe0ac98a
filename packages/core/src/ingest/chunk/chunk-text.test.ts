import { describe, expect, it } from 'vitest'
import { chunkText } from './chunk-text.js'

describe('chunkText', () => {
  it('keeps short text whole with offsets', () => {
    expect(chunkText('  Hello world. Bye.  ')).toEqual([
      { index: 0, text: 'Hello world. Bye.', start: 2, end: 19 },
    ])
    expect(chunkText('   ')).toEqual([])
  })

  it('packs whole sentences up to the token bound, with sentence overlap', () => {
    const sentence = (n: number) => `Sentence number ${n} has exactly seven words.`
    const text = Array.from({ length: 20 }, (_, i) => sentence(i)).join(' ')
    const chunks = chunkText(text, { maxTokens: 30, overlap: 8 })
    for (const c of chunks) {
      expect(c.text.split(/\s+/).length).toBeLessThanOrEqual(30)
      expect(text.slice(c.start, c.end)).toBe(c.text)
      expect(c.text.endsWith('.')).toBe(true)
    }
    expect(chunks[1]!.text.startsWith(sentence(3))).toBe(true) // chunk 0 = sentences 0-3, overlap repeats 3
    expect(chunks.at(-1)!.text.endsWith(sentence(19))).toBe(true)
  })

  it('cuts a sentence longer than the bound into token windows', () => {
    const text = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')
    const chunks = chunkText(text, { maxTokens: 40, overlap: 0 })
    expect(chunks.map((c) => c.text.split(' ').length)).toEqual([40, 40, 20])
    expect(chunks.map((c) => c.text).join(' ')).toBe(text)
  })
})

describe('chunkText on text without whitespace', () => {
  it('bounds every chunk, cutting unbreakable runs at maxTokenChars', () => {
    const text = 'x'.repeat(1_000_000)
    const started = performance.now()
    const chunks = chunkText(text)
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(chunks.length).toBe(Math.ceil(1_000_000 / 4096))
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(4096)
    expect(chunks.map((c) => c.text).join('')).toBe(text)
    expect(chunks.every((c, i) => c.index === i && text.slice(c.start, c.end) === c.text)).toBe(
      true,
    )
  })

  it('counts a long run as several tokens inside ordinary sentences', () => {
    const url = `https://example.org/${'a'.repeat(300)}` // 320 characters: 5 tokens
    const text = `See ${url} for details. Then stop.`
    const options = { maxTokens: 8, overlap: 0, maxTokenChars: 64 }
    // "See" + 5 pieces of the URL + "for" + "details." fill the 8 tokens.
    expect(chunkText(text, options).map((c) => c.text)).toEqual([
      `See ${url} for details.`,
      'Then stop.',
    ])
    const longer = `See ${url}${'b'.repeat(320)} for details. Then stop.` // 10 pieces: cut
    expect(chunkText(longer, options).map((c) => c.text.length)).toEqual([
      3 + 1 + 64 * 7,
      64 * 3 + ' for details. Then stop.'.length, // the next sentence still fits
    ])
  })

  it('leaves words up to maxTokenChars as one token each', () => {
    const word = 'y'.repeat(64)
    const text = Array.from({ length: 10 }, () => word).join(' ')
    expect(chunkText(text, { maxTokens: 10, overlap: 0 })).toHaveLength(1)
    expect(chunkText(`${text}y`, { maxTokens: 10, overlap: 0 })).toHaveLength(2)
  })

  it('bounds characters per chunk: prose of long tokens is cut at maxChars', () => {
    const word = 'z'.repeat(60)
    const text = Array.from({ length: 200 }, () => word).join(' ')
    const chunks = chunkText(text, { maxChars: 1000, overlap: 0 })
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(1000)
    expect(chunks.map((c) => c.text).join(' ')).toBe(text)
    expect(chunks[0]!.text.split(' ')).toHaveLength(16) // 16 * 61 - 1 = 975 <= 1000 < 1036
  })
})

describe('chunkText paragraphs', () => {
  const paragraph = (i: number, word = 'lighthouse') =>
    `Paragraph ${i} tells how keeper ${i} tended the ${word} through the winter storms. ` +
    `Every night the keeper climbed the stairs, trimmed the wick and watched the ships pass the reef.`

  it('keeps an edit of one paragraph of a long text in that paragraph s chunks', () => {
    const before = Array.from({ length: 10 }, (_, i) => paragraph(i)).join('\n\n')
    const after = Array.from({ length: 10 }, (_, i) =>
      i === 4 ? paragraph(i, 'great old lantern tower') : paragraph(i),
    ).join('\n\n')
    const a = chunkText(before, { maxTokens: 64, overlap: 8 }).map((c) => c.text)
    const b = chunkText(after, { maxTokens: 64, overlap: 8 }).map((c) => c.text)
    const changed = b.filter((t) => !a.includes(t))
    expect(changed.length).toBeGreaterThan(0)
    expect(changed.every((t) => t.includes('Paragraph 4'))).toBe(true)
    expect(a.filter((t) => !b.includes(t)).every((t) => t.includes('Paragraph 4'))).toBe(true)
  })

  it('keeps a short text, and a title with its long paragraph, chunked as one run', () => {
    const short = 'Title\n\nA short text in one chunk.'
    expect(chunkText(short)).toHaveLength(1)
    const long = `Oslo\n\n${'The city grows along the fjord. '.repeat(40)}`
    const chunks = chunkText(long, { maxTokens: 64, overlap: 8 })
    expect(chunks[0]!.text.startsWith('Oslo')).toBe(true)
    expect(chunks.length).toBeGreaterThan(1)
  })
})

describe('chunkText, fenced code', () => {
  const prose = (n: number) =>
    Array.from({ length: n }, (_, i) => `Sentence ${i} says a few more words here.`).join(' ')
  const code = Array.from(
    { length: 6 },
    (_, i) => `const step${i} = run(${i}).\n\nawait step${i}`,
  ).join('\n')
  const text = `${prose(30)}\n\n\`\`\`js\n${code}\n\`\`\`\n\n${prose(30)}`

  it('keeps a code block whole in one chunk, its blank lines and full stops no breaks', () => {
    const chunks = chunkText(text, { maxTokens: 64, overlap: 8 })
    const start = text.indexOf('```js')
    const end = text.lastIndexOf('```') + 3
    const holding = chunks.filter((c) => c.start < end && c.end > start)
    expect(holding.some((c) => c.start <= start && c.end >= end)).toBe(true)
    for (const c of chunks) expect((c.text.match(/^```/gm) ?? []).length % 2).toBe(0)
  })

  it('breaks the paragraph at the blank line right after a closing fence', () => {
    const after = prose(30)
    // A block of 30 tokens: a section of its own, not a short one joined to the next.
    const lines = Array.from({ length: 10 }, (_, i) => `let v${i} = ${i}`).join('\n')
    const blockText = `${prose(30)}\n\n\`\`\`js\n${lines}\n\`\`\`\n\n${after}`
    const chunks = chunkText(blockText, { maxTokens: 64, overlap: 8 })
    const next = blockText.lastIndexOf(after)
    // A chunk starts where the paragraph after the block starts: the break there counts.
    expect(chunks.some((c) => c.start === next)).toBe(true)
  })

  it('cuts a block longer than a chunk like any long sentence, within the bounds', () => {
    const long = `Intro.\n\n\`\`\`\n${Array.from({ length: 200 }, (_, i) => `x${i} = ${i}`).join('\n\n')}\n\`\`\``
    const chunks = chunkText(long, { maxTokens: 64, overlap: 8 })
    expect(chunks.length).toBeGreaterThan(2)
    for (const c of chunks)
      expect(c.text.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(64)
  })
})
