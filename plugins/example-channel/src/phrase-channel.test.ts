import { createEngine, memoryAdapter, type Passage } from '@engram/core'
import { describe, expect, it } from 'vitest'
import plugins, { combMnz, longestRun, phraseChannel } from './index.js'

const passage = (id: string, text: string): Passage => ({
  id,
  text,
  metadata: {},
  insertedAt: '2025-01-01T00:00:00.000Z',
  brainVersion: 't',
  source: null,
  position: 0,
  start: 0,
  end: text.length,
})

async function setup() {
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 't',
    plugins: [phraseChannel(), combMnz()],
  })
  await engram.start()
  const search = engram.search
  await engram.commit('default', {
    passages: [
      passage('ordered', 'The best new york pizza is sold near the station.'),
      passage('shuffled', 'Pizza in York was new to me, and the best I had.'),
      passage('partial', 'A New York deli, no pizza.'),
      passage('unrelated', 'Bicycles and mountains.'),
    ],
  })
  return { engram, search }
}

const request = {
  k: 10,
  expand: 'none' as const,
  rerank: 'none',
  profileStages: false,
}

describe('phrase channel (template)', () => {
  it('counts content words of the longest in-order run of query words', () => {
    const words = (s: string) => s.split(' ')
    expect(longestRun(words('best new york pizza'), words('the best new york pizza'), 2)).toBe(4)
    expect(longestRun(words('new york pizza'), words('pizza in york new'), 2)).toBe(0)
    expect(longestRun(words('new york pizza'), words('a new pizza in new york'), 2)).toBe(2)
    // A run of stopwords only is not a phrase match.
    expect(longestRun(words('of the pizza'), words('most of the time'), 2)).toBe(0)
    expect(longestRun(words('pizza'), words('pizza'), 2)).toBe(0)
  })

  it('runs as plugin:phrase, ranks word order, and fills scores.plugin', async () => {
    const { engram, search } = await setup()
    const res = await search.search('default', {
      ...request,
      query: 'new york pizza',
      channels: ['plugin:phrase'],
      fusion: 'none',
    })
    expect(res.channelLists['plugin:phrase']).toEqual(['ordered', 'partial'])
    expect(res.hits[0]).toMatchObject({
      id: 'ordered',
      channel: 'plugin:phrase',
      scores: { plugin: { phrase: 1 } },
    })
    expect(res.hits[1]!.scores.plugin).toEqual({ phrase: 2 / 3 })
    await engram.stop()
  })

  it('returns nothing for a one-word query or a brain without a match', async () => {
    const { engram, search } = await setup()
    for (const query of ['pizza', 'mountain bicycles']) {
      const res = await search.search('default', {
        ...request,
        query,
        channels: ['plugin:phrase'],
        fusion: 'none',
      })
      expect(res.channelLists['plugin:phrase'], query).toEqual([])
    }
    await engram.stop()
  })

  it('fuses with the passages channel through plugin:combmnz', async () => {
    const { engram, search } = await setup()
    const res = await search.search('default', {
      ...request,
      query: 'new york pizza',
      channels: ['passages', 'plugin:phrase'],
      fusion: 'plugin:combmnz',
    })
    expect(res.hits[0]!.id).toBe('ordered')
    expect(Object.keys(res.channelLists).sort()).toEqual(['bm25', 'plugin:phrase'].sort())
    // Two lists agree on `ordered`: sum of normalised scores times 2 lists.
    expect(res.hits[0]!.score).toBeGreaterThan(1)
    await engram.stop()
  })

  it('exports its factories as the default export, as ENGRAM_PLUGINS loads them', () => {
    expect(Array.isArray(plugins)).toBe(true)
    const made = (plugins as readonly (() => { kind: string; name: string })[]).map((f) => f())
    expect(made.map((p) => `${p.kind}:${p.name}`)).toEqual(['channel:phrase', 'fusion:combmnz'])
  })
})
