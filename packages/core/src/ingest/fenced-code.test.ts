import { describe, expect, it } from 'vitest'
import { fencedCode } from './fenced-code.js'

describe('fencedCode', () => {
  const blocks = (text: string) => fencedCode(text).map(([s, e]) => text.slice(s, e))

  it('finds each block from its opening fence through a closing fence of the same kind, at least as long', () => {
    expect(blocks('a\n```js\nx\n```\nb\n~~~~\ny\n~~~~~\nc')).toEqual([
      '```js\nx\n```\n',
      '~~~~\ny\n~~~~~\n',
    ])
    // A shorter run, another character or text after the run closes nothing.
    expect(blocks('````\nx\n```\n~~~~\n```` no\n````\nz')).toEqual([
      '````\nx\n```\n~~~~\n```` no\n````\n',
    ])
  })

  it('runs an unclosed block to the end, and takes no fence indented four spaces or with a backtick in its info', () => {
    expect(blocks('a\n   ```\nb\n')).toEqual(['   ```\nb\n'])
    expect(blocks('    ```\nb\n``` x`y\nc')).toEqual([])
    expect(blocks('```\n```\n```\n```\n```')).toEqual(['```\n```\n', '```\n```\n', '```'])
  })
})
