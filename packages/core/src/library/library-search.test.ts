import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashingTestEmbedder } from '../../testing/index.js'
import { engramFailure } from '../../test/support/engram-failure.js'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'

let engram: EngramLibrary

beforeAll(async () => {
  // A deterministic test embedder, so dense channels and `rerank: 'plugin:dense'` have vectors.
  engram = await testEngram({ embedder: hashingTestEmbedder() })
  const texts = [
    'Emily organized the AI Ethics Meetup in London.',
    'The meetup in London had many talks about ethics.',
    'Bob likes bicycles and mountains.',
  ]
  for (const [i, text] of texts.entries())
    await (await engram.ingest.text(text, { metaKeys: { session: `s${i % 2}` } })).done()
})
afterAll(() => engram.close())

describe('search', () => {
  it('searches with no options (the REST defaults)', async () => {
    const res = await engram.search('ethics meetup')
    expect(res.hits.length).toBeGreaterThan(0)
    expect(res.hits.every((h) => h.channel === 'passages')).toBe(true)
    expect(res.hits[0]!.snippet).toMatch(/meetup/i)
  })

  it('takes every REST search option', async () => {
    const res = await engram.search('ethics London', {
      k: 2,
      channels: ['passages', 'entities'],
      nodeLabels: [],
      communityLabels: [],
      expand: 'neighbors',
      fusion: 'cc',
      fusionAlpha: 0.3,
      rerank: 'plugin:dense',
      target: 'Emily',
      profileStages: true,
      extras: { session: 's0' },
      signal: AbortSignal.timeout(30_000),
    })
    expect(res.hits.length).toBeLessThanOrEqual(2)
    expect(res.stageTimings).not.toBeNull()
    const timings = res.stageTimings as { stages: { stage: string }[] }
    expect(timings.stages.map((t) => t.stage)).toEqual(
      expect.arrayContaining(['search.expand', 'search.rerank', 'search.personalize']),
    )
    const rrf = await engram.search('bicycles', { fusion: 'rrf', channels: ['passages'] })
    expect(rrf.hits[0]!.snippet).toContain('bicycles')
  })

  it.each([
    ['an empty query', () => engram.search(''), 'query'],
    ['a query over 2,000 characters', () => engram.search('x'.repeat(2001)), 'query'],
    ['k over 200', () => engram.search('x', { k: 201 }), 'k'],
    ['k not an integer', () => engram.search('x', { k: 1.5 }), 'k'],
    ['expand misspelt', () => engram.search('x', { expand: 'neighbours' as never }), 'expand'],
    ['rerank not a string', () => engram.search('x', { rerank: true as never }), 'rerank'],
    ['fusionAlpha over 1', () => engram.search('x', { fusionAlpha: 1.5 }), 'fusionAlpha'],
    [
      'channels as a string',
      () => engram.search('x', { channels: 'passages' as never }),
      'channels',
    ],
    [
      'extras with an object value',
      () => engram.search('x', { extras: { a: {} } as never }),
      'extras',
    ],
    ['an unknown option', () => engram.search('x', { topK: 3 } as never), 'topK'],
    ['options not an object', () => engram.search('x', 5 as never), 'options'],
  ])('refuses %s with a VALIDATION_ERROR (422) naming it', async (_case, call, field) => {
    const error = await engramFailure(call)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 })
    expect(JSON.stringify(error.detail)).toContain(field)
  })

  it('refuses unknown plugin names with the REST 400', async () => {
    for (const options of [{ fusion: 'nope' }, { channels: ['nope'] }, { rerank: 'dense' }])
      expect(await engramFailure(() => engram.search('x', options))).toMatchObject({
        code: 'VALIDATION_ERROR',
        status: 400,
      })
  })
})
