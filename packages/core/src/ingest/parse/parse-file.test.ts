import { describe, expect, it } from 'vitest'
import type { EngramError } from '../../errors.js'
import { parseFile } from './parse-file.js'

const bytes = (s: string) => new TextEncoder().encode(s)
const code = (fn: () => unknown) => {
  try {
    fn()
  } catch (e) {
    return [(e as EngramError).code, (e as EngramError).status]
  }
  return null
}

describe('parseFile', () => {
  it('reads text, markdown, html, json, jsonl and csv', () => {
    expect(parseFile({ filename: 'a.txt', mimeType: null, bytes: bytes('hello') }).text).toBe(
      'hello',
    )
    expect(
      parseFile({
        filename: 'a.html',
        mimeType: null,
        bytes: bytes('<p>Hi &amp; bye</p><script>x()</script><p>Two</p>'),
      }).text,
    ).toBe('Hi & bye\nTwo')
    expect(
      parseFile({
        filename: 'a.json',
        mimeType: null,
        bytes: bytes('{"name":"Emily","tags":["a","b"]}'),
      }).text,
    ).toBe('name: Emily\ntags[0]: a\ntags[1]: b')
    expect(
      parseFile({ filename: 'a.jsonl', mimeType: null, bytes: bytes('{"a":1}\n\n{"a":2}\n') }).text,
    ).toBe('a: 1\n\na: 2')
    expect(
      parseFile({ filename: 'a.csv', mimeType: null, bytes: bytes('name,city\nEmily,London\n') })
        .text,
    ).toBe('name: Emily\ncity: London')
    expect(
      parseFile({ filename: 'upload', mimeType: 'text/markdown', bytes: bytes('# T') }).metadata
        .file_type,
    ).toBe('md')
  })

  it('refuses other types and binaries with 415, broken JSON with 422', () => {
    expect(
      code(() => parseFile({ filename: 'a.exe', mimeType: null, bytes: bytes('MZ') })),
    ).toEqual(['UNSUPPORTED_MEDIA_TYPE', 415])
    expect(
      code(() =>
        parseFile({
          filename: 'a.txt',
          mimeType: null,
          bytes: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]),
        }),
      ),
    ).toEqual(['UNSUPPORTED_MEDIA_TYPE', 415])
    expect(
      code(() => parseFile({ filename: 'a.json', mimeType: null, bytes: bytes('{"a":') })),
    ).toEqual(['VALIDATION_ERROR', 422])
    expect(
      code(() => parseFile({ filename: 'a.jsonl', mimeType: null, bytes: bytes('{"a":1}\nnope') })),
    ).toEqual(['VALIDATION_ERROR', 422])
  })
})
