import { randomUUID } from 'node:crypto'
import type { Operation, Parameter } from './operations.js'
import { caseSeed, prng, type Prng } from './prng.js'
import {
  deepJson,
  DEPTHS,
  mutate,
  oddString,
  oddValue,
  RawJson,
  serialize,
  validValue,
} from './schema-values.js'

/** One request of the run, fully determined by the run seed and its index. */
export interface RequestCase {
  index: number
  /** What was generated, for the failure report. */
  label: string
  /** `raw`: a fresh TCP connection that writes every byte before reading (see raw-http.ts). */
  transport: 'fetch' | 'raw'
  method: string
  target: string
  headers: Record<string, string>
  body: Buffer | null
  /** Raw transport only: the exact bytes, for requests that are not valid HTTP. */
  bytes?: (string | Buffer)[]
}

export interface CaseContext {
  operations: Operation[]
  systemToken: string
  brainToken: string
  brainId: string
}

const MB = 1024 * 1024
const ELEVEN_MB = Buffer.alloc(11 * MB, 0x20)

/** Where one operation's generated values may differ from "anything the schema allows". */
const SAFE_DEFAULTS: Record<string, Record<string, unknown>> = {
  // Background work the run does not measure (extraction of megabytes of text) stays out of it.
  ingest_text: { skip_enrichment: true },
  ingest_structured: { mode: 'deterministic', text: null },
}

function encodePathValue(rng: Prng, op: Operation): string {
  const roll = rng.next()
  if (roll < 0.05) return 'a'.repeat(rng.pick([501, 600, 5_000])) // over maxParamLength: 414
  if (roll < 0.08) return rng.pick(['%E0%A4%A', '%', '%zz', '%C0%AF']) // bad %-encoding: 400
  // The run's own brain is kept: deleting it or rotating its token would turn every later
  // brain-token case into a 401.
  if (roll < 0.2)
    return rng.pick([
      op.path.startsWith('/system/') ? 'fuzz-other' : 'fuzz',
      'default',
      randomUUID(),
    ])
  // encodeURIComponent throws on a lone surrogate, which no client can send in a URL.
  return (
    encodeURIComponent(
      oddString(rng)
        .slice(0, 300)
        .replace(/[\ud800-\udfff]/g, '\ufffd'),
    ) || 'x'
  )
}

function queryValue(param: Parameter, rng: Prng, root: unknown): string[] {
  const value = rng.chance(0.7) ? validValue(param.schema, rng, root) : oddValue(rng)
  if (Array.isArray(value)) return value.map((v) => String(v).slice(0, 2_000))
  if (value instanceof RawJson) return [value.text.slice(0, 2_000)]
  if (value !== null && typeof value === 'object') return [JSON.stringify(value).slice(0, 2_000)]
  return [String(value).slice(0, rng.chance(0.95) ? 2_000 : 30_000)]
}

function target(op: Operation, rng: Prng, root: unknown): string {
  let path = op.path.replace(/\{[^}]+\}/g, () => encodePathValue(rng, op))
  if (rng.chance(0.03)) path = `${path}/${oddString(rng).slice(0, 50)}`
  const query = new URLSearchParams()
  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    if (!(param.required ? rng.chance(0.9) : rng.chance(0.4))) continue
    for (const v of queryValue(param, rng, root)) query.append(param.name, v)
  }
  if (rng.chance(0.05))
    query.append(rng.pick(['brain_id', 'limit', 'x', '__proto__']), oddString(rng).slice(0, 500))
  if (rng.chance(0.02)) query.append('long', 'q'.repeat(20_000)) // URL over the header limit: 431
  const text = query.toString()
  return text.length > 0 ? `${path}?${text}` : path
}

function authHeaders(rng: Prng, ctx: CaseContext): Record<string, string> {
  const roll = rng.next()
  if (roll < 0.75) return { ServicePAT: ctx.systemToken }
  if (roll < 0.85) return { Authorization: `Bearer ${ctx.brainToken}` }
  if (roll < 0.88) return {}
  if (roll < 0.91) return { ServicePAT: 'spat_not-a-real-token' }
  if (roll < 0.94) return { ServicePAT: ctx.systemToken, Authorization: `Bearer ${ctx.brainToken}` }
  return {
    Authorization: rng.pick(['Bearer', 'Basic dXNlcjpwYXNz', 'Bearer a b', 'x'.repeat(3000)]),
  }
}

function extraHeaders(rng: Prng, ctx: CaseContext, op: Operation): Record<string, string> {
  const h: Record<string, string> = {}
  if (rng.chance(0.15))
    h['X-Brain-ID'] = rng.pick([
      ctx.brainId,
      'default',
      'nope',
      'system',
      '1bad',
      'x'.repeat(300),
      'a b',
    ])
  if (rng.chance(0.1))
    h['X-Request-ID'] = rng.chance(0.5)
      ? randomUUID()
      : oddString(rng)
          .slice(0, 200)
          .replace(/[^\x20-\x7e]/g, '')
  if (op.id.startsWith('ingest') && rng.chance(0.2))
    h['Task-Identifier'] = rng.chance(0.5)
      ? `fuzz-${rng.int(0, 20)}`
      : oddString(rng)
          .slice(0, 300)
          .replace(/[^\x20-\x7e]/g, '')
  if (rng.chance(0.02)) h['X-Filler'] = 'f'.repeat(20_000) // headers over the limit: 431
  return h
}

function jsonBody(
  op: Operation,
  rng: Prng,
  root: unknown,
): { text: string | Buffer; label: string } {
  const roll = rng.next()
  if (roll < 0.02) return { text: ELEVEN_MB, label: '11 MB body' }
  if (roll < 0.05) {
    const depth = rng.pick(DEPTHS)
    return { text: serialize({ brain_id: deepJson(rng, depth) }), label: `brain_id ${depth} deep` }
  }
  if (roll < 0.1)
    return {
      text: rng.pick([
        '{',
        '{"name":',
        '[1,2',
        'nul',
        '"\\u12"',
        '{"a":1}}',
        '',
        ' ',
        '\ufeff{}',
        '[]',
        '42',
        '"x"',
        'null',
      ]),
      label: 'not JSON or not an object',
    }
  let value = validValue(op.body!.schema, rng, root)
  if (op.tool === undefined && value !== null && typeof value === 'object')
    value = { ...(value as object), ...SAFE_DEFAULTS[op.id] }
  const mutated = rng.chance(0.7)
  if (mutated) value = mutate(value, rng)
  if (op.tool !== undefined)
    value = {
      jsonrpc: '2.0',
      id: rng.int(1, 1000),
      method: 'tools/call',
      params: { name: op.tool, arguments: value },
    }
  return { text: serialize(value), label: mutated ? 'mutated body' : 'valid body' }
}

const B = 'fuzz-boundary-7d1e'
const part = (name: string, value: string | Buffer, filename?: string, type = 'text/plain') =>
  Buffer.concat([
    Buffer.from(
      `--${B}\r\nContent-Disposition: form-data; name="${name}"` +
        (filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: ${type}`) +
        '\r\n\r\n',
    ),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ])

function multipartBody(rng: Prng): { body: Buffer; contentType: string; label: string } {
  const file = rng.pick<[string, string, string]>([
    ['notes.txt', 'Ada met Grace in London.', 'text/plain'],
    ['a.md', '# Title\n\nSome text.', 'text/markdown'],
    ['d.json', '{"a": [1, 2', 'application/json'],
    ['d.jsonl', '{"a":1}\n{bad', 'application/x-ndjson'],
    ['t.csv', 'a,b\n"1,2\n', 'text/csv'],
    ['p.pdf', '%PDF-1.4 broken', 'application/pdf'],
    ['x.exe', 'MZ\u0000\u0001', 'application/octet-stream'],
    ['../../etc/passwd', 'x', 'text/plain'],
    ['empty.txt', '', 'text/plain'],
    ['big.txt', 'word '.repeat(200_000), 'text/plain'],
    ['deep.json', '['.repeat(100_000) + ']'.repeat(100_000), 'application/json'],
  ])
  const parts: Buffer[] = []
  const roll = rng.next()
  if (rng.chance(0.3))
    parts.push(part('meta_keys', rng.chance(0.5) ? '{"title":"t"}' : serialize(oddValue(rng))))
  if (rng.chance(0.2))
    parts.push(part('brain_id', rng.pick(['fuzz', 'default', '1bad', 'system', ''])))
  if (roll < 0.1) for (let i = 0; i < 25; i++) parts.push(part(`f${i}`, 'v'))
  parts.push(part(roll < 0.15 && roll >= 0.1 ? 'other' : 'file', file[1], file[0], file[2]))
  if (roll >= 0.15 && roll < 0.2) parts.push(part('file', 'second', 'b.txt'))
  let body = Buffer.concat([...parts, Buffer.from(`--${B}--\r\n`)])
  let label = `multipart ${file[0]}`
  if (roll >= 0.2 && roll < 0.3) {
    body = body.subarray(0, rng.int(0, body.length - 1))
    label += ' truncated'
  }
  const contentType =
    roll >= 0.3 && roll < 0.35
      ? rng.pick([
          'multipart/form-data',
          `multipart/form-data; boundary=${'b'.repeat(300)}`,
          'multipart/form-data; boundary=""',
          'multipart/mixed; boundary=x',
        ])
      : `multipart/form-data; boundary=${B}`
  return { body, contentType, label }
}

/** Requests that are not valid HTTP/1.1, or that Node's parser refuses: raw bytes. */
function malformedHttp(rng: Prng, ctx: CaseContext): { bytes: (string | Buffer)[]; label: string } {
  const auth = `ServicePAT: ${ctx.systemToken}\r\n`
  const body = Buffer.alloc(rng.pick([0, 1024, 2 * MB]), 0x61)
  const choices: [string, (string | Buffer)[]][] = [
    ['garbage request line', ['GARBAGE\r\n\r\n']],
    ['unknown HTTP version', ['GET /health HTTP/9.9\r\nHost: x\r\n\r\n']],
    ['header without colon', ['GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n']],
    ['no Host', [`GET /meta/login-info HTTP/1.1\r\n${auth}\r\n`]],
    ['HTTP/1.0 without Host', ['GET /health HTTP/1.0\r\n\r\n']],
    [
      'Content-Length and Transfer-Encoding',
      [
        `POST /ingest/ HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ],
    ],
    [
      'bad chunk size',
      [
        `POST /ingest/ HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      ],
    ],
    [
      'two Content-Length',
      [
        `POST /ingest/ HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      ],
    ],
    [
      'negative Content-Length',
      [`POST /ingest/ HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: -1\r\n\r\n`],
    ],
    [
      'headers over the limit, then a body',
      [
        `POST /ingest/ HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(20_000)}\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
      ],
    ],
    [
      'URL over the limit',
      [`GET /retrieve/search?query=${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
    ],
    ['NUL in the URL', ['GET /he\u0000alth HTTP/1.1\r\nHost: x\r\n\r\n']],
    ['absolute-form URL', ['GET http://example.com/health HTTP/1.1\r\nHost: x\r\n\r\n']],
    ['asterisk-form URL', ['OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n']],
    [
      'Expect: 100-continue',
      [
        `POST /model/entity HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 12\r\n\r\n`,
        '{"name":"e"}',
      ],
    ],
    [
      'gzip that is not gzip',
      [
        `POST /model/entity HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 12\r\n\r\n`,
        '{"name":"e"}',
      ],
    ],
    ['pipelined requests', ['GET /health HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n']],
  ]
  const [label, bytes] = rng.pick(choices)
  return { bytes, label }
}

/** Builds case `index` of the run seeded with `seed`. */
export function requestCase(
  seed: number,
  index: number,
  ctx: CaseContext,
  root: unknown,
): RequestCase {
  const rng = prng(caseSeed(seed, index))
  if (rng.chance(0.04)) {
    const { bytes, label } = malformedHttp(rng, ctx)
    return {
      index,
      label,
      transport: 'raw',
      method: '',
      target: '',
      headers: {},
      body: null,
      bytes,
    }
  }
  const op = rng.pick(ctx.operations)
  let method = op.method
  if (rng.chance(0.04)) method = rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
  const headers: Record<string, string> = {
    ...authHeaders(rng, ctx),
    ...extraHeaders(rng, ctx, op),
  }
  let body: Buffer | null = null
  let label = `${method} ${op.id}`
  if (op.body?.type === 'multipart') {
    const m = multipartBody(rng)
    body = m.body
    headers['Content-Type'] = m.contentType
    label += ` ${m.label}`
  } else if (op.body !== null || rng.chance(0.05)) {
    const j =
      op.body !== null
        ? jsonBody(op, rng, root)
        : { text: '{"stray":"body"}', label: 'body on a bodyless operation' }
    body = Buffer.isBuffer(j.text) ? j.text : Buffer.from(j.text)
    label += ` ${j.label}`
    headers['Content-Type'] = rng.chance(0.9)
      ? 'application/json'
      : rng.pick([
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-16',
          'application/vnd.api+json',
          'multipart/form-data',
          '',
        ])
    if (headers['Content-Type'] === '') delete headers['Content-Type']
  }
  if (op.tool !== undefined) headers.Accept = 'application/json, text/event-stream'
  const transport = (body?.length ?? 0) > MB || rng.chance(0.15) ? 'raw' : 'fetch'
  return { index, label, transport, method, target: target(op, rng, root), headers, body }
}
