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
