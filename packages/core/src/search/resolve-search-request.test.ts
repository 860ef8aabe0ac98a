import { afterEach, describe, expect, it } from 'vitest'
import { createEngine } from '../engine/create-engine.js'
import type { Engram } from '../engine/engine-types.js'
import { EngramError } from '../errors.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { fixtures } from '../../testing/fixtures.js'
import { resolveSearchRequest } from './resolve-search-request.js'
import type { SearchInput } from './search-request.js'

describe('resolveSearchRequest', () => {
  it('fills every omitted field with the REST default', () => {
    expect(resolveSearchRequest({ query: 'ada' })).toEqual({
      query: 'ada',
      k: 10,
      channels: ['passages'],
      expand: 'auto',
      rerank: 'auto',
      profileStages: false,
    })
  })

  it('keeps what the caller gave', () => {
    const full: SearchInput = {
      query: 'ada',
      k: 3,
      channels: ['entities'],
      nodeLabels: ['PERSON'],
      communityLabels: ['c'],
      expand: 'neighbors',
      fusion: 'rrf',
      fusionAlpha: 0.4,
      rerank: 'plugin:dense',
      target: 'bob',
      profileStages: true,
      extras: { session: 's1' },
      lexicalOnly: true,
    }
    expect(resolveSearchRequest(full)).toEqual(full)
  })

  it.each([
    [{ query: 'x', k: 0 }, 'k'],
    [{ query: 'x', k: 2.5 }, 'k'],
    [{ query: 'x', k: '5' }, 'k'],
    [{ query: 'x', expand: 'all' }, 'expand'],
    [{ query: 'x', rerank: 42 }, 'rerank'],
    [{ query: 'x', channels: 'passages' }, 'channels'],
    [{ query: 'x', fusionAlpha: 2 }, 'fusionAlpha'],
    [{ query: 'x', profileStages: 'yes' }, 'profileStages'],
    [{ k: 5 }, 'query'],
  ])('refuses %j with a VALIDATION_ERROR naming %s', (input, field) => {
    const error = (() => {
      try {
        resolveSearchRequest(input as unknown as SearchInput)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(EngramError)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 })
    expect((error as EngramError).detail).toEqual([expect.objectContaining({ loc: [field] })])
    expect((error as Error).message).toContain(field)
  })
})

describe('SearchService.search with omitted options', () => {
  let engram: Engram | undefined
  afterEach(async () => {
    await engram?.stop()
    engram = undefined
  })

  it('searches with only a query (it used to throw a TypeError on the missing rerank)', async () => {
    engram = createEngine({ storage: memoryAdapter(), version: 't' })
    await engram.start()
    await engram.commit('default', {
      passages: [
        fixtures.passage({
          id: 'p1',
          text: 'Ada met Babbage in London.',
          metadata: { session_id: 's' },
        }),
        fixtures.passage({ id: 'p2', text: 'Bob rides bikes.', metadata: { session_id: 's' } }),
      ],
    })
    const response = await engram.search.search('default', { query: 'Babbage' })
    // The default graph stage lends p2, the next turn of p1's session, part of p1's score.
    expect(response.hits.map((h) => h.id)).toEqual(['p1', 'p2'])
    const plain = await engram.search.search('default', { query: 'Babbage', expand: 'none' })
    expect(plain.hits.map((h) => h.id)).toEqual(['p1'])
    // The chunks of one text lend each other nothing (they overlap already).
    await engram.commit('default', {
      passages: [
        fixtures.passage({ id: 'c0', text: 'Lovelace wrote notes.', source: 'doc', position: 0 }),
        fixtures.passage({ id: 'c1', text: 'Then came the engine.', source: 'doc', position: 1 }),
      ],
    })
    const chunks = await engram.search.search('default', { query: 'Lovelace' })
    expect(chunks.hits.map((h) => h.id)).toEqual(['c0'])
    await expect(
      engram.search.search('default', { query: 'Babbage', expand: 'sideways' } as never),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' })
  })
})
