import { describe, expect, it } from 'vitest'
import { markdownSections } from './docs-brain.js'

describe('markdownSections', () => {
  it('keeps a fenced code block whole: its blank lines break nothing, its "#" lines are no headings', () => {
    const text = [
      '# Verify it yourself',
      '',
      'Run this:',
      '',
      '```sh',
      'curl localhost:8080/health',
      '',
      '# after stopping the server: nothing found',
      'grep -r word "$DATA_DIR" || echo gone',
      '```',
      '',
      'Then read the result.',
    ].join('\n')
    const sections = markdownSections(text)
    expect(sections.map((s) => s.heading)).toEqual(['Verify it yourself'])
    expect(sections[0]!.text).toContain('curl localhost:8080/health\n\n# after stopping the server')
    expect(sections[0]!.text).toContain('Then read the result.')
  })

  it('starts a section at a heading right after a code block', () => {
    const sections = markdownSections('# One\n\n```sh\nls\n\nls -l\n```\n\n## Two\n\nafter')
    expect(sections).toEqual([
      { heading: 'One', text: 'One\n```sh\nls\n\nls -l\n```' },
      { heading: 'Two', text: 'Two\nafter' },
    ])
  })

  it('splits at blank lines outside code and starts a section at each heading', () => {
    const sections = markdownSections('# One\n\nfirst\n\n## Two\n\nsecond\n\nthird')
    expect(sections).toEqual([
      { heading: 'One', text: 'One\nfirst' },
      { heading: 'Two', text: 'Two\nsecond\nthird' },
    ])
  })
})
