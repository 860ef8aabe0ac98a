import { describe, expect, it } from 'vitest'
import { createEngine } from '../engine/create-engine.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { EngramError } from '../errors.js'
import type { ChannelPlugin, SearchPlugin } from '../contracts/search-plugins.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import type { SearchRequest } from './search-request.js'

const AT = '2025-01-01T00:00:00.000Z'
const passage = (id: string, text: string, metadata: Record<string, unknown> = {}): Passage => ({
  id,
  text,
  metadata,
  insertedAt: AT,
  brainVersion: 't',
  source: null,
  position: 0,
  start: 0,
  end: text.length,
})
const entity = (uuid: string, name: string, labels: string[], o: Partial<Entity> = {}): Entity => ({
  uuid,
  name,
  description: null,
  labels,
  properties: {},
  metadata: null,
  happenedAt: null,
  lastUpdated: AT,
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
  ...o,
})
const rel = (
  uuid: string,
  s: string,
  o: string,
  name: string,
  flowKey: string | null = null,
): Relationship => ({
  uuid,
  subjectUuid: s,
  objectUuid: o,
  name,
  description: null,
  amount: null,
  deprecated: false,
  direction: 'neutral',
  flowKey,
  level: null,
  properties: {},
  happenedAt: null,
  lastUpdated: AT,
  sourcePassageIds: [],
})
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

const echoChannel: ChannelPlugin = {
  kind: 'channel',
  name: 'echo',
  yields: 'passages',
  async search() {
    return [{ name: 'echo', signal: 'plugin', items: [{ id: 'p3', score: 42 }] }]
  },
}

async function setup(plugins: SearchPlugin[] = [echoChannel]) {
  const engram = createEngine({ storage: memoryAdapter(), version: 't', plugins })
  await engram.start()
  const search = engram.search
  await engram.commit('default', {
    passages: [
      passage('p1', 'Emily organized the AI Ethics Meetup in London.', {
        dia_id: 'D1:1',
        session: 's1',
      }),
      passage('p2', 'The meetup in London had many talks about ethics.', {
        dia_id: 'D1:2',
        session: 's2',
      }),
      passage('p3', 'Bob likes bicycles and mountains.', { dia_id: 'D2:1', session: 's2' }),
    ],
    entities: [
      entity('e-emily', 'Emily', ['PERSON'], { description: 'organiser of meetups' }),
      entity('e-london', 'London', ['PLACE']),
      entity('e-meetup', 'AI Ethics Meetup', ['EVENT'], { happenedAt: '2024-03-08' }),
      entity('e-bike', 'Bicycle', ['PRODUCT']),
      entity('e-car', 'Car', ['PRODUCT']),
      entity('e-user', 'user:bob', ['USER']),
      entity('e-buy', 'purchase', ['EVENT']),
      entity('e-green', 'green', ['COLOR']),
    ],
    relationships: [
      rel('r1', 'e-emily', 'e-meetup', 'ORGANIZED', 'f1'),
      rel('r2', 'e-meetup', 'e-london', 'OCCURRED_IN', 'f1'),
      rel('r3', 'e-user', 'e-buy', 'MADE', 'f2'),
      rel('r4', 'e-buy', 'e-bike', 'TARGETED', 'f2'),
      rel('r5', 'e-bike', 'e-green', 'HAS_COLOR'),
      rel('r6', 'e-car', 'e-green', 'HAS_COLOR'),
    ],
  })
  return { engram, search }
}

describe('search service', () => {
  it('ranks passages by BM25 with snippets, extras, facets and channel lists', async () => {
    const { search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'Emily ethics meetup London', profileStages: true }),
    )
    expect(res.hits.map((h) => h.id)).toEqual(['p1', 'p2'])
    expect(res.hits[0]).toMatchObject({
      channel: 'passages',
      nodeId: 'p1',
      extras: { dia_id: 'D1:1', session: 's1' },
    })
    expect(res.hits[0]!.scores.bm25).toBeGreaterThan(0)
    expect(res.hits[0]!.scores.rrf).toBeCloseTo(1 / 61, 9)
    expect(res.channelLists.bm25).toEqual(['p1', 'p2'])
    expect(res.facets).toEqual({ dia_id: { 'D1:1': 1, 'D1:2': 1 }, session: { s1: 1, s2: 1 } })
    expect(res.stageTimings).toMatchObject({
      profile: true,
      stages: expect.arrayContaining([expect.objectContaining({ stage: 'search.bm25' })]),
    })
  })

  it("hops (rerank=auto) from a possessive only when few of the brain's passages hold the name", async () => {
    const { search } = await setup()
    const stages = async (query: string) => {
      const res = await search.search(
        'default',
        request({ query, expand: 'auto', rerank: 'auto', profileStages: true }),
      )
      return (res.stageTimings as { stages: { stage: string }[] }).stages.map((s) => s.stage)
    }
    // "Bob" is in one passage of three (in a small brain one passage counts), "meetup" in two of
    // three: a name most passages hold asks about the brain's own subject.
    expect(await stages("What colour is Bob's bicycle?")).toContain('search.rerank')
    expect(await stages('What colour is the bicycle?')).not.toContain('search.rerank')
    expect(await stages("What happened at the Meetup's end?")).not.toContain('search.rerank')
  })

  it('filters by extras before the cut to k', async () => {
    const { search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'london meetup ethics', k: 1, extras: { session: 'S2' } }),
    )
    expect(res.hits.map((h) => h.id)).toEqual(['p2'])
  })

  it('searches entities with label filters and events with their times, fused by rrf', async () => {
    const { search } = await setup()
    const people = await search.search(
      'default',
      request({ query: 'Emily meetup', channels: ['entities'], nodeLabels: ['PERSON'] }),
    )
    expect(people.hits.map((h) => h.id)).toEqual(['e-emily'])
    expect(people.hits[0]).toMatchObject({ channel: 'entities', labels: ['PERSON'] })
    const mixed = await search.search(
      'default',
      request({ query: 'AI Ethics Meetup', channels: ['passages', 'events'] }),
    )
    expect(mixed.channelLists.events).toEqual(['e-meetup'])
    expect(mixed.hits.find((h) => h.id === 'e-meetup')).toMatchObject({
      channel: 'events',
      extras: { happened_at: '2024-03-08' },
    })
  })

  it('expands one hop from graph seeds', async () => {
    const { search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'Emily', channels: ['entities'], expand: 'neighbors' }),
    )
    expect(res.channelLists.neighbors).toEqual(['e-meetup'])
    expect(res.hits.map((h) => [h.id, h.channel])).toEqual([
      ['e-emily', 'entities'],
      ['e-meetup', 'neighbors'],
    ])
  })

  it('reports plugin channels as plugin:<name> in channel_lists and scores.plugin', async () => {
    const { search } = await setup()
    const res = await search.search(
      'default',
      request({ query: 'bicycles', channels: ['passages', 'plugin:echo'] }),
    )
    expect(res.channelLists['plugin:echo']).toEqual(['p3'])
    const hit = res.hits.find((h) => h.id === 'p3')!
    expect(hit.scores.plugin).toEqual({ echo: 42 })
  })

  it('skips candidates without a stored record and still fills k hits, in rank order', async () => {
    // Records are loaded k at a time in rank order: ids nothing stores must not cost a hit.
    const ghosts: ChannelPlugin = {
      kind: 'channel',
      name: 'ghosts',
      yields: 'passages',
      async search() {
        const ids = ['gone-1', 'gone-2', 'p2', 'gone-3', 'gone-4', 'p3', 'gone-5', 'p1']
        return [
          { name: 'ghosts', signal: 'plugin', items: ids.map((id, i) => ({ id, score: 10 - i })) },
        ]
      },
    }
    const { search } = await setup([ghosts])
    for (const k of [1, 2, 3, 10]) {
      const res = await search.search(
        'default',
        request({ query: 'anything', k, channels: ['plugin:ghosts'], fusion: 'none' }),
      )
      expect(res.hits.map((h) => h.id)).toEqual(['p2', 'p3', 'p1'].slice(0, k))
      expect(res.channelLists['plugin:ghosts']).toHaveLength(8)
    }
  })

  it('answers 400 naming the loaded plugins for unknown channels, fusions and reranks', async () => {
    const { search } = await setup()
    for (const bad of [
      { channels: ['nope'] },
      { channels: ['plugin:nope'] },
      { fusion: 'linear' },
      { rerank: 'linear' },
      { rerank: 'plugin:nope' },
    ]) {
      const error = await search.search('default', request(bad)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(EngramError)
      expect((error as EngramError).status, JSON.stringify(bad)).toBe(400)
    }
    const error = (await search
      .search('default', request({ channels: ['nope'] }))
      .catch((e: unknown) => e)) as EngramError
    expect(error.message).toContain('plugin:echo')
  })

  it('personalizes a vague query toward the target’s preferences without dropping hits', async () => {
    const { search } = await setup()
    const plain = await search.search(
      'default',
      request({ query: 'car bicycle', channels: ['entities'] }),
    )
    expect(plain.hits.map((h) => h.id).sort()).toEqual(['e-bike', 'e-car'])
    const personal = await search.search(
      'default',
      request({ query: 'car bicycle', channels: ['entities'], target: 'bob' }),
    )
    expect(personal.hits).toHaveLength(2)
    expect(personal.hits[0]!.id).toBe('e-bike')
    expect(personal.hits[0]!.scores.personalize).toBeDefined()
  })

  it('follows commits and rebuilds for a re-created brain', async () => {
    const { engram, search } = await setup()
    await engram.brains.create('other')
    expect((await search.search('other', request({ query: 'zebra' }))).hits).toEqual([])
    await engram.commit('other', { passages: [passage('z1', 'A zebra crossing')] })
    expect(
      (await search.search('other', request({ query: 'zebra' }))).hits.map((h) => h.id),
    ).toEqual(['z1'])
    await engram.brains.delete('other')
    await engram.brains.create('other')
    expect((await search.search('other', request({ query: 'zebra' }))).hits).toEqual([])
  })
})
