import { describe, expect, it } from 'vitest'
import type { EngramError } from '../../errors.js'
import { minimalPdf } from '../../../testing/minimal-pdf.js'
import { checkFile, parseFile, type Upload } from './parse-file.js'

const bytes = (s: string) => new TextEncoder().encode(s)
const text = async (upload: Upload) => (await parseFile(upload)).text
const code = async (fn: () => Promise<unknown>) => {
  try {
    await fn()
  } catch (e) {
    return [(e as EngramError).code, (e as EngramError).status]
  }
  return null
}

describe('parseFile', () => {
  it('reads text, markdown, html, json, jsonl and csv', async () => {
    expect(await text({ filename: 'a.txt', mimeType: null, bytes: bytes('hello') })).toBe('hello')
    expect(
      await text({
        filename: 'a.html',
        mimeType: null,
        bytes: bytes('<p>Hi &amp; bye</p><script>x()</script><p>Two</p>'),
      }),
    ).toBe('Hi & bye\nTwo')
    expect(
      await text({
        filename: 'a.json',
        mimeType: null,
        bytes: bytes('{"name":"Emily","tags":["a","b"]}'),
      }),
    ).toBe('name: Emily\ntags[0]: a\ntags[1]: b')
    expect(
      await text({ filename: 'a.jsonl', mimeType: null, bytes: bytes('{"a":1}\n\n{"a":2}\n') }),
    ).toBe('a: 1\n\na: 2')
    expect(
      await text({ filename: 'a.csv', mimeType: null, bytes: bytes('name,city\nEmily,London\n') }),
    ).toBe('name: Emily\ncity: London')
    expect(
      (await parseFile({ filename: 'upload', mimeType: 'text/markdown', bytes: bytes('# T') }))
        .metadata.file_type,
    ).toBe('md')
  })

  it('reads the text layer of a PDF, by extension or MIME type', async () => {
    const pdf = minimalPdf(['Emily organized the AI Ethics Meetup (London).', 'On March 8, 2024.'])
    const parsed = await parseFile({ filename: 'talk.pdf', mimeType: null, bytes: pdf })
    expect(parsed.text).toBe('Emily organized the AI Ethics Meetup (London).\nOn March 8, 2024.')
    expect(parsed.metadata).toEqual({ file_type: 'pdf', pages: 1 })
    expect(await checkFile({ filename: 'upload', mimeType: 'application/pdf', bytes: pdf })).toBe(
      'pdf',
    )
  })

  it('gives the title a Markdown file, an HTML page or a PDF names itself, and no other', async () => {
    const title = async (filename: string, content: string | Uint8Array) =>
      (
        await parseFile({
          filename,
          mimeType: null,
          bytes: typeof content === 'string' ? bytes(content) : content,
        })
      ).metadata.title
    expect(await title('a.md', '# Release notes\n\nText.')).toBe('Release notes')
    expect(await title('a.html', '<title> Team  page </title><h1>Welcome</h1>')).toBe('Team page')
    expect(await title('a.html', '<body><h1>Welcome <b>home</b></h1><p>x</p></body>')).toBe(
      'Welcome home',
    )
    expect(await title('a.html', '<p>No heading</p>')).toBeUndefined()
    expect(await title('a.pdf', minimalPdf(['Body.'], { title: 'Annual report' }))).toBe(
      'Annual report',
    )
    expect(await title('b.pdf', minimalPdf(['Body.']))).toBeUndefined()
    expect(await title('a.txt', '# Not markdown\n')).toBeUndefined()
  })

  it('refuses other types and binaries with 415, broken JSON and unreadable PDFs with 422', async () => {
    expect(
      await code(() => parseFile({ filename: 'a.exe', mimeType: null, bytes: bytes('MZ') })),
    ).toEqual(['UNSUPPORTED_MEDIA_TYPE', 415])
    expect(
      await code(() =>
        parseFile({
          filename: 'a.txt',
          mimeType: null,
          bytes: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]),
        }),
      ),
    ).toEqual(['UNSUPPORTED_MEDIA_TYPE', 415])
    expect(
      await code(() => parseFile({ filename: 'a.json', mimeType: null, bytes: bytes('{"a":') })),
    ).toEqual(['VALIDATION_ERROR', 422])
    expect(
      await code(() =>
        checkFile({ filename: 'a.jsonl', mimeType: null, bytes: bytes('{"a":1}\nnope') }),
      ),
    ).toEqual(['VALIDATION_ERROR', 422])
    // A PDF is recognised by its header: a renamed text file is not one.
    expect(
      await code(() => checkFile({ filename: 'a.pdf', mimeType: null, bytes: bytes('hello') })),
    ).toEqual(['UNSUPPORTED_MEDIA_TYPE', 415])
    const truncated = minimalPdf(['Some text']).subarray(0, 40)
    expect(
      await code(() => checkFile({ filename: 'a.pdf', mimeType: null, bytes: truncated })),
    ).toEqual(['VALIDATION_ERROR', 422])
    expect(
      await code(() => parseFile({ filename: 'empty.pdf', mimeType: null, bytes: minimalPdf([]) })),
    ).toEqual(['VALIDATION_ERROR', 422])
  })

  it('refuses JSON and JSONL nested deeper than 256 levels with a 422 that names the limit', async () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
    for (const upload of [
      { filename: 'a.json', mimeType: null, bytes: bytes(deep(100_000)) },
      { filename: 'a.jsonl', mimeType: null, bytes: bytes(`{"a":1}\n${deep(300)}`) },
    ]) {
      const error = await parseFile(upload).then(
        () => null,
        (e: EngramError) => e,
      )
      expect([error?.code, error?.status]).toEqual(['VALIDATION_ERROR', 422])
      expect(error?.message).toMatch(/nests deeper than 256 levels/)
    }
    expect(await text({ filename: 'a.json', mimeType: null, bytes: bytes(deep(256)) })).toBe('')
  })
})
