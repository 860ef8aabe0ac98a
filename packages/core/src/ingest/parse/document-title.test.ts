import { describe, expect, it } from 'vitest'
import { markdownTitle } from './document-title.js'

describe('markdownTitle', () => {
  it('reads the first level-1 heading, in ATX or setext form, as the text it shows', () => {
    expect(markdownTitle('# Engram\n\nMemory.')).toBe('Engram')
    expect(markdownTitle('Intro line.\n\n#   Closing hashes ##  \n')).toBe('Closing hashes')
    expect(markdownTitle('Engram\n======\n\nMemory.')).toBe('Engram')
    expect(markdownTitle('A title over\ntwo lines\n===\n')).toBe('A title over two lines')
    expect(markdownTitle('# The [`npm start`](https://x.y) **guide** for _new_ users')).toBe(
      'The npm start guide for new users',
    )
    expect(markdownTitle('# snake_case_name and 2*3*4')).toBe('snake_case_name and 2*3*4')
  })

  it('prefers a front matter title', () => {
    expect(markdownTitle('---\nlayout: post\ntitle: "Hello, world"\n---\n# Other\n')).toBe(
      'Hello, world',
    )
    expect(markdownTitle('---\nlayout: post\n---\n# Heading\n')).toBe('Heading')
  })

  it('finds none in code, in lower headings, in hashtags or under a list item', () => {
    expect(markdownTitle('```sh\n# a comment\n```\n\n## Install\n')).toBeNull()
    expect(markdownTitle('~~~\n# a comment\n~~~\n# Real\n')).toBe('Real')
    expect(markdownTitle('#hashtag and #another\n')).toBeNull()
    expect(markdownTitle('- item\n===\n')).toBeNull()
    expect(markdownTitle('#\n\n# \n')).toBeNull()
    expect(markdownTitle('Plain text.')).toBeNull()
    expect(markdownTitle('Text\n\n===\n')).toBeNull()
    // An underline or a rule is no paragraph for the next underline.
    expect(markdownTitle('Text\n\n===\n===\n')).toBeNull()
    expect(markdownTitle('Intro\n\n---\n===\n')).toBeNull()
  })
})
