import { describe, expect, it } from 'vitest'
import { inlineText, parseInline, parseMarkdown, safeHref } from './markdown-parse.js'

describe('parseMarkdown', () => {
  it('reads headings, paragraphs, lists and fenced code', () => {
    const blocks = parseMarkdown(
      '# Notes\n\nAda met\nBabbage.\n\n- one\n- two\n  wrapped\n\n1. first\n2) second\n\n```\n<b>x</b>\n```',
    )
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'code'])
    expect(blocks[0]).toEqual({
      kind: 'heading',
      level: 1,
      children: [{ kind: 'text', text: 'Notes' }],
    })
    expect(blocks[1]).toEqual({
      kind: 'paragraph',
      children: [{ kind: 'text', text: 'Ada met Babbage.' }],
    })
    expect(blocks[2]).toMatchObject({ ordered: false })
    expect(blocks[2]!.kind === 'list' && blocks[2]!.items.map(inlineText)).toEqual([
      'one',
      'two wrapped',
    ])
    expect(blocks[3]).toMatchObject({ ordered: true })
    expect(blocks[4]).toEqual({ kind: 'code', text: '<b>x</b>' })
  })

  it('keeps a line that only looks like markup as text when it is not at a line start', () => {
    expect(parseMarkdown('a # b - c').map((b) => b.kind)).toEqual(['paragraph'])
  })
})

describe('parseInline', () => {
  it('reads strong, em, code and links', () => {
    expect(parseInline('**Ada** met *Charles* in `London` [docs](https://example.org/a)')).toEqual([
      { kind: 'strong', children: [{ kind: 'text', text: 'Ada' }] },
      { kind: 'text', text: ' met ' },
      { kind: 'em', children: [{ kind: 'text', text: 'Charles' }] },
      { kind: 'text', text: ' in ' },
      { kind: 'code', text: 'London' },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: 'https://example.org/a', children: [{ kind: 'text', text: 'docs' }] },
    ])
  })

  it('leaves unclosed markup, snake_case and escaped markers as text', () => {
    expect(parseInline('a **cut snippet')).toEqual([{ kind: 'text', text: 'a **cut snippet' }])
    expect(parseInline('file_name_here and 2 * 3 * 4')).toEqual([
      { kind: 'text', text: 'file_name_here and 2 * 3 * 4' },
    ])
    expect(parseInline('\\*not em\\*')).toEqual([{ kind: 'text', text: '*not em*' }])
  })

  it('never links anything but http(s), and never reads HTML', () => {
    expect(parseInline('[x](javascript:alert(1)) y')).toEqual([
      { kind: 'text', text: 'x' },
      { kind: 'text', text: ' y' },
    ])
    expect(parseInline('[Ada](https://en.wikipedia.org/wiki/Ada_(programmer))')).toEqual([
      {
        kind: 'link',
        href: 'https://en.wikipedia.org/wiki/Ada_(programmer)',
        children: [{ kind: 'text', text: 'Ada' }],
      },
    ])
    expect(parseInline('[x](javascript:alert)')).toEqual([{ kind: 'text', text: 'x' }])
    expect(parseInline('[x](/relative)')).toEqual([{ kind: 'text', text: 'x' }])
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)>' },
    ])
    expect(safeHref('data:text/html,hi')).toBeNull()
    expect(safeHref('HTTPS://Example.org')).toBe('https://example.org/')
  })
})
