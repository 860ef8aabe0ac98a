import { describe, expect, it } from 'vitest'
import type { ExtractionInput } from '../../contracts/extractor.js'
import { codeSpans, maskMarkdown, unfencedPassageTexts, withoutWholeText } from './markdown-mask.js'

/** What the extractor reads of each passage: its whole text's code blocks blanked, then its markdown. */
const maskedPassageTexts = (input: ExtractionInput) => unfencedPassageTexts(input).map(maskMarkdown)

describe('maskMarkdown', () => {
  it('blanks syntax character for character, so offsets still point into the passage', () => {
    const text =
      '# Analytical Engine notes ##\n\n> **Ada Lovelace** worked with _Charles Babbage_.\n- a [plan](https://x.y "t") of the `engine`\n'
    const masked = maskMarkdown(text)
    expect(masked).toHaveLength(text.length)
    expect(masked.indexOf('Ada Lovelace')).toBe(text.indexOf('Ada Lovelace'))
    expect(masked.indexOf('engine')).toBe(text.indexOf('engine'))
    expect(masked.split('\n').map((line) => line.replace(/ +/g, ' '))).toEqual([
      ' Analytical Engine notes ',
      '',
      ' Ada Lovelace worked with Charles Babbage .',
      ' a plan of the engine ',
      '',
    ])
  })

  it('blanks fenced code blocks whole, keeping their line breaks', () => {
    const text = 'Call it:\n```ts\nconst of = (entityUuid) => x\n```\nThen Ada Lovelace reads it.'
    const masked = maskMarkdown(text)
    expect(masked).toHaveLength(text.length)
    expect(masked).not.toMatch(/entityUuid|ts|`/)
    expect(masked.split('\n')).toHaveLength(5)
    expect(masked.endsWith('Then Ada Lovelace reads it.')).toBe(true)
  })

  it('keeps what is text: ordered list numbers, intra-word underscores, arithmetic, plain prose', () => {
    expect(maskMarkdown('1. snake_case and 2 * 3 = 6')).toBe('1. snake_case and 2 * 3 = 6')
    const prose = 'Caroline went to the LGBTQ support group yesterday.'
    expect(maskMarkdown(prose)).toBe(prose)
  })
})

describe('unfencedPassageTexts, then maskMarkdown', () => {
  // Two chunks of one text, the second cut inside a fenced code block.
  const text =
    'Intro to the server.\n\n```sh\nconst hit = find()\n\nROLE=api npm start\n```\n\nAda Lovelace wrote it.\n'
  const cut = text.indexOf('ROLE')
  const passages = [
    {
      id: 'a',
      text: text.slice(0, cut).trimEnd(),
      start: 0,
      end: text.slice(0, cut).trimEnd().length,
    },
    { id: 'b', text: text.slice(cut).trimEnd(), start: cut, end: text.trimEnd().length },
  ]
  const input = { passages, text, sourceTimestamp: '2026-01-01T00:00:00Z', observateFor: [] }

  it('masks a passage cut inside a code block as the whole text reads it', () => {
    const [, second] = maskedPassageTexts(input)
    expect(second).toHaveLength(passages[1]!.text.length)
    expect(second!.trim()).toBe('Ada Lovelace wrote it.')
    // Alone, its code is prose and its closing fence opens a block over the prose after it.
    expect(maskMarkdown(passages[1]!.text)).toContain('ROLE=api')
    expect(maskMarkdown(passages[1]!.text)).not.toContain('Ada Lovelace')
  })

  it('masks each passage alone without the whole text, a fence in it, or offsets that give its text', () => {
    const alone = passages.map((p) => maskMarkdown(p.text))
    expect(maskedPassageTexts({ ...input, text: undefined })).toEqual(alone)
    const shifted = passages.map((p) => ({ ...p, start: p.start + 1, end: p.end + 1 }))
    expect(maskedPassageTexts({ ...input, passages: shifted })).toEqual(alone)
    const plain = {
      ...input,
      text: 'No fence here.',
      passages: [{ id: 'c', text: 'No fence here.' }],
    }
    expect(maskedPassageTexts(plain)).toEqual(['No fence here.'])
  })
})

describe('codeSpans', () => {
  it('finds the content of inline code spans of one backtick, not TeX quotes', () => {
    const text =
      "Use `ON DELETE CASCADE` or `Node`; ``Roman '', as in the`` Roman Church'' and `open\nline` are none."
    expect(codeSpans(text).map(([from, to]) => text.slice(from, to))).toEqual([
      'ON DELETE CASCADE',
      'Node',
    ])
    expect(codeSpans('no code')).toEqual([])
  })
})

describe('withoutWholeText', () => {
  it('drops the whole text, blanking first the code only it shows', () => {
    const text = '```\nconst hit = find()\n\nROLE=api\n```\n\n**Ada Lovelace** wrote `it`.'
    const cut = text.indexOf('ROLE')
    const input = {
      passages: [{ id: 'b', text: text.slice(cut), start: cut, end: text.length }],
      text,
      sourceTimestamp: '2026-01-01T00:00:00Z',
      observateFor: [],
    }
    const out = withoutWholeText(input)
    expect(out.text).toBeUndefined()
    // The code block goes; the rest is sent as written (its code span still shows), and masks there as
    // it masks here.
    expect(out.passages[0]!.text.trim()).toBe('**Ada Lovelace** wrote `it`.')
    expect(maskMarkdown(out.passages[0]!.text)).toBe(maskedPassageTexts(input)[0])
    expect(codeSpans(out.passages[0]!.text)).toHaveLength(1)
    const plain = { ...input, text: 'Ada wrote.', passages: [{ id: 'c', text: 'Ada wrote.' }] }
    expect(withoutWholeText(plain)).toEqual({
      passages: plain.passages,
      sourceTimestamp: input.sourceTimestamp,
      observateFor: [],
    })
  })
})
