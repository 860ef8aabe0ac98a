import { describe, expect, it } from 'vitest'
import { jsonBody } from './json-body.js'

/** A seeded generator (a linear congruential one: enough to vary test values reproducibly). */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
}

/** The body equals `JSON.stringify(value)` byte for byte (both undefined for undefined). */
function expectSameAsStringify(value: unknown) {
  const body = jsonBody(value)
  const json = JSON.stringify(value) as string | undefined
  if (json === undefined) return expect(body).toBeUndefined()
  const got = typeof body === 'string' ? Buffer.from(body) : body
  expect(got?.toString('utf8')).toBe(json)
  expect(got?.equals(Buffer.from(json))).toBe(true)
}

describe('jsonBody', () => {
  it('is the bytes of JSON.stringify for text beyond Latin-1, surrogate pairs and lone surrogates', () => {
    expectSameAsStringify({
      hits: [
        { id: 'p1', text: 'Stem cells divide…', score: 0.5 },
        { id: 'p2', text: 'café “quoted” — 東京 😀', score: 0.25 },
      ],
      lone: ['\ud800', 'a\udfffb'],
      total: 2,
    })
  })

  it('leaves out fields with no JSON and writes such array items as null, as JSON.stringify does', () => {
    const noJson = { toJSON: () => undefined }
    expectSameAsStringify({
      skippedFirst: undefined,
      f: () => 1,
      s: Symbol('x'),
      kept: [undefined, () => 1, Symbol('y'), noJson, 1, [undefined]],
      gone: noJson,
      // eslint-disable-next-line no-sparse-arrays
      sparse: [1, , 3],
      last: undefined,
    })
    expectSameAsStringify([undefined, { a: undefined }, { b: [noJson] }])
  })

  it('honours toJSON, and serializes dates, maps, class instances and boxed values whole', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    expectSameAsStringify({
      at: new Date(Date.UTC(2024, 0, 8)),
      custom: { toJSON: () => ({ shown: ['yes'] }) },
      map: new Map([['a', 1]]),
      point: new Point(1, 2),
      boxed: [Object('text…') as unknown, Object(3) as unknown],
      numbers: [NaN, Infinity, -0, 1e21],
      empty: [{}, []],
      nullProto: Object.assign(Object.create(null) as object, { a: [1] }),
      deep: { a: { b: { c: { d: [{ e: 'é…' }] } } } },
    })
  })

  it('matches JSON.stringify on long arrays, written in runs of items', () => {
    const items = Array.from({ length: 41 }, (_, i) =>
      i % 7 === 0 ? undefined : i % 5 === 0 ? () => i : { id: i, text: i % 3 ? 'plain' : 'wide…' },
    )
    // eslint-disable-next-line no-sparse-arrays
    const holes = [1, , 3, ...Array.from({ length: 20 }, (_, i) => i), , 'end…']
    expectSameAsStringify({ items, holes, nested: [{ deep: items }, items] })
    expectSameAsStringify([items, holes, [], [[]]])
    expectSameAsStringify(Object.assign([1, 2], { toJSON: () => 'own toJSON' }))
  })

  it('matches JSON.stringify on random nested values', () => {
    const random = seeded(29)
    const texts = ['', 'plain', 'snippet…', 'naïve', 'π', '😀', '"quoted"\n', '\u2028', '\ud83d']
    const value = (depth: number): unknown => {
      const r = random()
      if (depth === 0 || r < 0.3) return texts[Math.floor(random() * texts.length)]
      if (r < 0.4) return random() < 0.5 ? null : Math.round(random() * 1000) / 7
      if (r < 0.45) return random() < 0.5 ? undefined : true
      if (r < 0.7) return Array.from({ length: Math.floor(random() * 40) }, () => value(depth - 1))
      const out: Record<string, unknown> = {}
      for (let i = Math.floor(random() * 5); i > 0; i--)
        out[texts[Math.floor(random() * texts.length)]! + i] = value(depth - 1)
      return out
    }
    for (let n = 0; n < 300; n++) expectSameAsStringify(value(4))
  })

  it('returns the plain string for primitives and for records without nested objects', () => {
    expect(jsonBody({ service: 'engram', status: 'ok', version: '1.0.0' })).toBe(
      '{"service":"engram","status":"ok","version":"1.0.0"}',
    )
    expect(jsonBody('a…')).toBe('"a…"')
    expect(jsonBody(null)).toBe('null')
    expect(jsonBody([1, 2])).toBe('[1,2]')
    expect(Buffer.isBuffer(jsonBody({ items: [{ id: 'a' }], total: 1 }))).toBe(true)
  })
})
