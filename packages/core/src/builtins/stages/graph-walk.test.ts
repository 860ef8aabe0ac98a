import { describe, expect, it } from 'vitest'
import { createEngine } from '../../engine/create-engine.js'
import { memoryAdapter } from '../../memory-adapter/index.js'
import { fixtures } from '../../../testing/fixtures.js'
import type { SearchRequest } from '../../search/search-request.js'
import { blendWalk, smoothBySequence } from './graph-walk.js'

const passage = (id: string, text: string, at: string, metadata = {}) =>
  fixtures.passage({ id, text, metadata, insertedAt: at, source: null, end: text.length })
const entity = (uuid: string, name: string, sourcePassageIds: string[]) =>
  fixtures.entity({ uuid, name, sourcePassageIds })
const request = (o: Partial<SearchRequest>): SearchRequest => ({
  query: 'x',
  k: 10,
  channels: ['passages'],
  expand: 'none',
  fusion: 'rrf',
  rerank: 'none',
  profileStages: false,
  ...o,
})

/**
 * A two-hop question: "spouse of the composer of Aurora Suite". p1 names the composer (Ilse Varga); p2 is
 * about her and names her spouse, but shares no word with the question but her name, which the question
 * does not contain. Only the entity they share connects them. p4 and p5 are turns of one session.
 */
async function setup() {
  const engram = createEngine({ storage: memoryAdapter(), version: 't' })
  await engram.start()
  await engram.commit('default', {
    passages: [
      passage('p1', 'The Aurora Suite composer was Ilse Varga.', '2025-01-01T00:00:01Z'),
      passage('p2', 'Ilse Varga married Tomas Berg in Vienna.', '2025-01-01T00:00:02Z'),
      passage('p3', 'Unrelated notes about spouse benefits and suites.', '2025-01-01T00:00:03Z'),
      passage('p4', 'Did you finish the marathon training?', '2025-01-01T00:00:04Z', {
        session: 's1',
      }),
      passage('p5', 'Yes, I ran 30 km on Sunday.', '2025-01-01T00:00:05Z', { session: 's1' }),
    ],
    entities: [
      entity('e-ilse', 'Ilse Varga', ['p1', 'p2']),
      entity('e-aurora', 'Aurora Suite', ['p1']),
      entity('e-tomas', 'Tomas Berg', ['p2']),
    ],
  })
  return engram
}

describe('graph walk stage (expand=neighbors)', () => {
  it('brings the second-hop passage, which shares only an entity with the first, into the ranking', async () => {
    const engram = await setup()
    const query = 'Who is the spouse of the composer of the Aurora Suite?'
    const plain = await engram.search.search('default', request({ query }))
    expect(plain.hits.map((h) => h.id)).not.toContain('p2')
    const walked = await engram.search.search('default', request({ query, expand: 'neighbors' }))
    const ids = walked.hits.map((h) => h.id)
    expect(ids[0]).toBe('p1')
    expect(ids).toContain('p2')
    expect(walked.channelLists.neighbors).toContain('p2')
    await engram.stop()
  })

  it('lifts the next turn of a session: the answer to a question shares no word with it', async () => {
    const engram = await setup()
    const query = 'marathon training'
    const plain = await engram.search.search('default', request({ query }))
    expect(plain.hits.map((h) => h.id)).toEqual(['p4'])
    const walked = await engram.search.search('default', request({ query, expand: 'neighbors' }))
    expect(walked.hits.map((h) => h.id)).toEqual(['p4', 'p5'])
    await engram.stop()
  })
})

describe('blendWalk and smoothBySequence', () => {
  it('mixes min-max fused scores with walk mass over the best, and adds reached passages', () => {
    const out = blendWalk(
      [
        { id: 'a', score: 3 },
        { id: 'b', score: 1 },
      ],
      new Map([
        ['b', 0.2],
        ['c', 0.4],
      ]),
      0.5,
    )
    expect(out).toEqual([
      { id: 'a', score: 0.5 },
      { id: 'c', score: 0.5 },
      { id: 'b', score: 0.25 },
    ])
  })

  it('gives a passage its own score plus a share of its best neighbour', () => {
    const out = smoothBySequence(
      [
        { id: 'a', score: 1 },
        { id: 'b', score: 0.2 },
      ],
      new Map([
        ['a', ['b', 'z']],
        ['b', ['a']],
      ]),
      0.5,
    )
    expect(out).toEqual([
      { id: 'a', score: 1.1 },
      { id: 'b', score: 0.7 },
      { id: 'z', score: 0.5 },
    ])
  })
})
