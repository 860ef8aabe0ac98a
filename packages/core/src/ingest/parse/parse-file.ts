import { EngramError } from '../../errors.js'
import type { JsonObject } from '../../model/common.js'
import { markdownTitle } from './document-title.js'
import { checkPdf, looksLikePdf, parsePdf } from './parse-pdf.js'

export const SUPPORTED_TYPES = ['txt', 'md', 'json', 'jsonl', 'csv', 'html', 'pdf'] as const
export type FileType = (typeof SUPPORTED_TYPES)[number]

const BY_EXTENSION: Record<string, FileType> = {
  txt: 'txt',
  text: 'txt',
  log: 'txt',
  md: 'md',
  markdown: 'md',
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  csv: 'csv',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
}
const BY_MIME: Record<string, FileType> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/json': 'json',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/pdf': 'pdf',
}

function unsupported(what: string): EngramError {
  return new EngramError('UNSUPPORTED_MEDIA_TYPE', `Unsupported file type: ${what}.`, {
    resolution: `Send one of: ${SUPPORTED_TYPES.join(', ')}.`,
  })
}

/** True when the bytes look like text (valid UTF-8, no NUL bytes): rejects executables, images, archives. */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192)
  if (head.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(
      head.length < bytes.length ? head.subarray(0, head.length - 4) : head,
    )
    return true
  } catch {
    return false
  }
}

/**
 * The type of an upload from its name, then its MIME type. Content must match: a PDF starts with its
 * header, every other type is text, so executables, images and archives are refused whatever they claim.
 */
export function detectFileType(
  filename: string,
  mimeType: string | null,
  bytes: Uint8Array,
): FileType {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase()
  const type =
    (extension ? BY_EXTENSION[extension] : undefined) ??
    (mimeType ? BY_MIME[mimeType.split(';')[0]!.trim().toLowerCase()] : undefined)
  if (type === undefined) throw unsupported(extension ? `.${extension}` : (mimeType ?? 'unknown'))
  if (type === 'pdf') {
    if (!looksLikePdf(bytes)) throw unsupported('content that is not a PDF')
  } else if (!looksLikeText(bytes)) throw unsupported('binary content')
  return type
}

function invalid(message: string, loc: (string | number)[]): EngramError {
  return new EngramError('VALIDATION_ERROR', message, {
    status: 422,
    detail: [{ loc, msg: message, type: 'value_error' }],
  })
}

/**
 * Deepest nesting of an uploaded JSON document (or JSONL record) that is ingested. `jsonToText` walks
 * the value recursively with a path that grows at each level, so a deeper one is refused (422) before
 * the walk: a 100,000-deep file overflowed the stack, and the stack error became the message.
 */
const MAX_FILE_JSON_DEPTH = 256

/** Whether a parsed JSON value nests deeper than `limit` (iterative: it may be far deeper). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth > limit) return true
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return false
}

/** A JSON value as readable `path: value` lines, so that BM25 and extraction see words, not braces. */
export function jsonToText(value: unknown, path = ''): string {
  if (value === null || typeof value !== 'object')
    return path ? `${path}: ${String(value)}` : String(value)
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value as JsonObject)
  return entries
    .map(([key, v]) =>
      jsonToText(v, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key),
    )
    .filter((line) => line.length > 0)
    .join('\n')
}

// The HTML and CSV parsers (about 40 modules) load with the first such file, not with the engine.
/** An HTML page's text, and its title: the `<title>` element's, else its first `<h1>`'s. */
async function htmlToText(html: string): Promise<{ text: string; title: string | null }> {
  const { Parser } = await import('htmlparser2')
  const parts: string[] = []
  let skip = 0
  // The element whose text is being read as a title, and what was read of each.
  let reading: 'title' | 'h1' | null = null
  const read = { title: '', h1: '' }
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'script' || name === 'style' || name === 'noscript') skip++
        if (/^(p|div|br|li|h[1-6]|tr|section|article)$/.test(name)) parts.push('\n')
        if ((name === 'title' || name === 'h1') && read[name] === '') reading = name
      },
      onclosetag(name) {
        if (name === 'script' || name === 'style' || name === 'noscript') skip--
        if (name === reading) reading = null
      },
      ontext(text) {
        if (skip > 0) return
        parts.push(text)
        if (reading !== null) read[reading] += text
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  parser.end()
  const title = [read.title, read.h1]
    .map((t) => t.replace(/\s+/g, ' ').trim())
    .find((t) => t !== '')
  return {
    text: parts
      .join('')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n\s*\n\s*/g, '\n\n')
      .trim(),
    title: title ?? null,
  }
}

const titled = (title: string | null): { title?: string } => (title === null ? {} : { title })

export interface Upload {
  filename: string
  mimeType: string | null
  bytes: Uint8Array
}

/**
 * Checks an upload before its task is accepted, so a bad file gets its 415 or 422 at once: text formats
 * are parsed (cheap), a PDF is opened (its pages are read only by the task).
 */
export async function checkFile(input: Upload): Promise<FileType> {
  const type = detectFileType(input.filename, input.mimeType, input.bytes)
  if (type === 'pdf') await checkPdf(input.bytes)
  // Text and Markdown cannot fail to parse once `detectFileType` read them as text.
  else if (type !== 'txt' && type !== 'md') await parseText(type, input.bytes)
  return type
}

/**
 * Parses an upload into text (CONTRACT.md section 3): txt, md, json, jsonl, csv, html, pdf. The
 * metadata holds the type, a PDF's page count and the `title` the document gives itself, if any (a
 * Markdown file's, an HTML page's or a PDF's document information).
 */
export async function parseFile(input: Upload): Promise<{ text: string; metadata: JsonObject }> {
  const type = detectFileType(input.filename, input.mimeType, input.bytes)
  if (type === 'pdf') {
    const { text, pages, title } = await parsePdf(input.bytes)
    return { text, metadata: { file_type: type, pages, ...titled(title) } }
  }
  return parseText(type, input.bytes)
}

async function parseText(
  type: Exclude<FileType, 'pdf'>,
  bytes: Uint8Array,
): Promise<{ text: string; metadata: JsonObject }> {
  const raw = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
  switch (type) {
    case 'txt':
      return { text: raw, metadata: { file_type: type } }
    case 'md':
      return { text: raw, metadata: { file_type: type, ...titled(markdownTitle(raw)) } }
    case 'html': {
      const { text, title } = await htmlToText(raw)
      return { text, metadata: { file_type: type, ...titled(title) } }
    }
    case 'json': {
      let value: unknown
      try {
        value = JSON.parse(raw)
      } catch (error) {
        throw invalid(`The file is not valid JSON: ${(error as Error).message}`, ['file'])
      }
      if (nestsDeeperThan(value, MAX_FILE_JSON_DEPTH))
        throw invalid(`The file nests deeper than ${MAX_FILE_JSON_DEPTH} levels.`, ['file'])
      return { text: jsonToText(value), metadata: { file_type: type } }
    }
    case 'jsonl': {
      const lines = raw.split('\n').map((l) => l.trim())
      const records = lines.flatMap((line, i) => {
        if (line.length === 0) return []
        let value: unknown
        try {
          value = JSON.parse(line)
        } catch {
          throw invalid(`Line ${i + 1} of the file is not valid JSON.`, ['file', i + 1])
        }
        if (nestsDeeperThan(value, MAX_FILE_JSON_DEPTH))
          throw invalid(
            `Line ${i + 1} of the file nests deeper than ${MAX_FILE_JSON_DEPTH} levels.`,
            ['file', i + 1],
          )
        return [jsonToText(value)]
      })
      return { text: records.join('\n\n'), metadata: { file_type: type, records: records.length } }
    }
    case 'csv': {
      const { parse: parseCsv } = await import('csv-parse/sync')
      let rows: Record<string, string>[]
      try {
        rows = parseCsv(raw, {
          columns: true,
          skip_empty_lines: true,
          relax_column_count: true,
          bom: true,
        }) as Record<string, string>[]
      } catch (error) {
        throw invalid(`The file is not valid CSV: ${(error as Error).message}`, ['file'])
      }
      return {
        text: rows
          .map((row) =>
            Object.entries(row)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n'),
          )
          .join('\n\n'),
        metadata: { file_type: type, records: rows.length },
      }
    }
  }
}
