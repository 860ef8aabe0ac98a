import { describe, expect, it } from 'vitest'
import { serverRoot } from './server-root.js'

describe('serverRoot', () => {
  it('drops console/ from the page URL', () => {
    expect(serverRoot('http://127.0.0.1:8000/console/')).toBe('http://127.0.0.1:8000/')
    expect(serverRoot('http://127.0.0.1:8000/console/index.html')).toBe('http://127.0.0.1:8000/')
  })

  it('keeps a BASE_PATH', () => {
    expect(serverRoot('https://example.org/engram/console/')).toBe('https://example.org/engram/')
    expect(serverRoot('https://example.org/a/console/b/console/')).toBe(
      'https://example.org/a/console/b/',
    )
  })

  it('ignores the query and the fragment', () => {
    expect(serverRoot('http://h/base/console/?x=1#y')).toBe('http://h/base/')
  })
})
