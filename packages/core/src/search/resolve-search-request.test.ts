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
        fixtures.passage({ id: 'p1', text: 'Ada met Babbage in London.' }),
        fixtures.passage({ id: 'p2', text: 'Bob rides bikes.' }),
      ],
    })
    const response = await engram.search.search('default', { query: 'Babbage' })
    // The default graph stage lends p2, the next chunk of p1's source, part of p1's score.
    expect(response.hits.map((h) => h.id)).toEqual(['p1', 'p2'])
    const plain = await engram.search.search('default', { query: 'Babbage', expand: 'none' })
    expect(plain.hits.map((h) => h.id)).toEqual(['p1'])
    await expect(
      engram.search.search('default', { query: 'Babbage', expand: 'sideways' } as never),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' })
  })
})
