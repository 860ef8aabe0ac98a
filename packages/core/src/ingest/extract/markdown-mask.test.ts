import { describe, expect, it } from 'vitest'
import { maskMarkdown } from './markdown-mask.js'

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
