import { describe, expect, it } from 'vitest'
import { compactResult } from './compact-result.js'

describe('compactResult', () => {
  it('drops null and empty strings, arrays and objects, at any depth', () => {
    expect(
      compactResult({
        a: '',
        b: null,
        c: [],
        d: {},
        e: { f: '', g: [], h: { i: null } },
        j: 'kept',
        k: 0,
        l: false,
        m: [{ n: '', o: 1 }],
      }),
    ).toEqual({ j: 'kept', k: 0, l: false, m: [{ o: 1 }] })
  })

  it('keeps array elements in place, even when compaction empties them', () => {
    expect(compactResult({ triple: [{ name: 'A' }, { description: '' }, 'x', ''] })).toEqual({
      triple: [{ name: 'A' }, {}, 'x', ''],
    })
  })

  it('rounds scores to 3 significant digits, and only scores', () => {
    const out = compactResult({
      hits: [
        {
          score: 0.0012268934939827078,
          scores: { bm25: 2.2732278025985693, plugin: { x: 1 / 3 } },
        },
      ],
      paths: [{ weight: 0.8754264737223545 }],
      amount: 1234.5678,
      depth: 2,
    })
    expect(out).toEqual({
      hits: [{ score: 0.00123, scores: { bm25: 2.27, plugin: { x: 0.333 } } }],
      paths: [{ weight: 0.875 }],
      amount: 1234.5678,
      depth: 2,
    })
  })

  it('leaves out the omitted keys anywhere, or under the named parent only', () => {
    const result = {
      start: { uuid: 's', name: 'S' },
      nodes: [{ uuid: 'n', name: 'N' }],
      edges: [{ uuid: 'e', flow_key: 'f', subject_uuid: 's', object_uuid: 'n' }],
    }
    expect(compactResult(result, { omit: new Set(['edges.uuid', 'flow_key']) })).toEqual({
      start: { uuid: 's', name: 'S' },
      nodes: [{ uuid: 'n', name: 'N' }],
      edges: [{ subject_uuid: 's', object_uuid: 'n' }],
    })
    expect(compactResult(result, { omit: new Set(['uuid']) }).nodes).toEqual([{ name: 'N' }])
  })

  it('passes free-form maps through untouched, unless empty', () => {
    const metadata = { id: 'DOC-1', note: '', score: 0.123456, nested: { empty: [] } }
    const out = compactResult(
      { hits: [{ id: 'h', extras: { id: 'x', score: 4.56789 }, metadata }], properties: {} },
      { omit: new Set(['id']) },
    )
    expect(out).toEqual({ hits: [{ extras: { id: 'x', score: 4.56789 }, metadata }] })
    const web = [{ description: '', WORKS_AT: { Acme: '', info: [] } }]
    expect(compactResult({ natural_language_web: web }).natural_language_web).toBe(web)
  })

  it('keeps the named top-level fields even when empty', () => {
    expect(
      compactResult({ hits: [], node_ids: [], text: '' }, { keep: new Set(['hits', 'text']) }),
    ).toEqual({ hits: [], text: '' })
  })
})
