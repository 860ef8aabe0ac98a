import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engramFailure } from '../../test/support/engram-failure.js'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'
import type { StructuredItemInput } from './library-ingest.js'

let engram: EngramLibrary
let emily: string

/** `user` -MADE-> purchase -TARGETED-> `product`: the event graph recommendations walk. */
const purchase = (user: string, product: string, day: number): StructuredItemInput => ({
  subject: { name: user, type: 'USER' },
  subjEvent: { name: 'MADE' },
  event: { name: `${user} bought ${product}`, type: 'PURCHASE', happenedAt: `2024-05-0${day}` },
  eventObj: { name: 'TARGETED' },
  object: { name: product, type: 'PRODUCT' },
})

beforeAll(async () => {
  engram = await testEngram()
  await (
    await engram.ingest.text(
      'Emily organized the AI Ethics Meetup in London. Emily met Priya at the meetup.',
    )
  ).done()
  await (
    await engram.ingest.structured([
      purchase('ann', 'Bicycle', 1),
      purchase('ann', 'Helmet', 2),
      purchase('ben', 'Bicycle', 3),
      purchase('ben', 'Helmet', 4),
      purchase('cai', 'Bicycle', 5),
      purchase('cai', 'Lamp', 6),
    ])
  ).done()
  const named = await engram.records.entities({ queryText: 'Emily' })
  emily = named.items.find((e) => e.entity.name === 'Emily')!.entity.uuid
})
afterAll(() => engram.close())

describe('graph operations', () => {
  it('retrieve: passages, observations and relationships for a text', async () => {
    const result = await engram.graph.retrieve('Who organized the meetup?', {
      preferredEntities: ['PERSON'],
      limit: 3,
    })
    expect(result.data[0]!.text).toContain('Emily')
    expect(result.relationships.length).toBeGreaterThan(0)
    expect((await engram.graph.retrieve('meetup')).data.length).toBeGreaterThan(0)
  })

  it('neighbors: by uuid, by identification, and ranked by phrases (ai-mode)', async () => {
    const byUuid = await engram.graph.neighbors(emily, { limit: 5 })
    expect(byUuid.mainNode.uuid).toBe(emily)
    expect(byUuid.neighbors.length).toBeGreaterThan(0)
    const byName = await engram.graph.neighbors({ name: 'Emily', entityTypes: ['PERSON'] })
    expect(byName.mainNode.uuid).toBe(emily)
    const looking = await engram.graph.neighbors({ name: 'Emily' }, { lookingFor: ['London'] })
    expect(looking.mainNode.uuid).toBe(emily)
    const filtered = await engram.graph.neighbors(emily, { lookFor: 'London' })
    expect(filtered.neighbors.length).toBeLessThanOrEqual(byUuid.count)
  })

  it('entityContext, entityInfo and entityStatus', async () => {
    const context = await engram.graph.entityContext('Emily', { contextDepth: 2 })
    expect(context.targetNode.uuid).toBe(emily)
    expect(context.neighborhood.length).toBeGreaterThan(0)
    const info = await engram.graph.entityInfo('Emily', 'where was the meetup', { maxDepth: 2 })
    expect(info.targetNode.uuid).toBe(emily)
    expect(await engram.graph.entityStatus('Emily')).toMatchObject({ exists: true })
    expect(await engram.graph.entityStatus('Nobody Atall', { types: ['PERSON'] })).toMatchObject({
      exists: false,
    })
  })

  it('hops and the context pack', async () => {
    const trees = await engram.graph.hops('Emily', { degrees: 1 })
    expect(trees.length).toBeGreaterThan(0)
    expect(trees[0]!.hops.length).toBeGreaterThan(0)
    const pack = await engram.graph.context('What did Emily organize?', {
      maxFacts: 5,
      maxPassages: 2,
      historicalLimit: 1,
      usePpr: false,
      profileStages: true,
    })
    expect(pack.sourcePassages.length).toBeGreaterThan(0)
    expect(pack.sourcePassages.length).toBeLessThanOrEqual(2)
    expect(pack.stageTimings).not.toBeNull()
  })

  it('synergies and recommendations over the event graph', async () => {
    const found = await engram.graph.synergies('Bicycle', { topK: 5, anchors: true })
    expect(found.synergies.map((s) => s.node.name)).toContain('Helmet')
    const recommended = await engram.graph.recommend('cai', {
      topK: 5,
      diversify: false,
      excludeSeen: true,
      behaviorWeights: { purchase: 2 },
    })
    expect(recommended.targetNode.name).toBe('cai')
    expect(recommended.recommendations.map((r) => r.node.name)).toContain('Helmet')
  })

  it('unknown targets are RESOURCE_NOT_FOUND, as over REST', async () => {
    for (const call of [
      () => engram.graph.entityContext('Nobody Atall'),
      () => engram.graph.entityInfo('Nobody Atall', 'x'),
      () => engram.graph.synergies('Nobody Atall'),
      () => engram.graph.recommend('Nobody Atall'),
      () => engram.graph.neighbors('no-such-uuid'),
      () => engram.graph.neighbors({ name: 'Nobody Atall' }),
    ])
      expect(await engramFailure(call)).toMatchObject({ code: 'RESOURCE_NOT_FOUND' })
  })

  it.each([
    ['retrieve without text', () => engram.graph.retrieve(undefined as never), 'text'],
    ['retrieve limit 0', () => engram.graph.retrieve('x', { limit: 0 }), 'limit'],
    ['neighbors of a number', () => engram.graph.neighbors(5 as never), 'entity'],
    ['neighbors of {}', () => engram.graph.neighbors({}), 'entity'],
    [
      'neighbors with a typo',
      () => engram.graph.neighbors('x', { lookfor: 'a' } as never),
      'lookfor',
    ],
    [
      'neighbors with empty lookingFor',
      () => engram.graph.neighbors('x', { lookingFor: [] }),
      'lookingFor',
    ],
    [
      'entityContext depth 9',
      () => engram.graph.entityContext('Emily', { contextDepth: 9 }),
      'contextDepth',
    ],
    ['entityInfo without a query', () => engram.graph.entityInfo('Emily', '' as never), 'query'],
    [
      'entityStatus types as a string',
      () => engram.graph.entityStatus('Emily', { types: 'PERSON' as never }),
      'types',
    ],
    ['hops degrees 4', () => engram.graph.hops('Emily', { degrees: 4 }), 'degrees'],
    ['context maxFacts -1', () => engram.graph.context('x', { maxFacts: -1 }), 'maxFacts'],
    [
      'synergies polarity',
      () => engram.graph.synergies('Emily', { polarity: 'inverse' as never }),
      'polarity',
    ],
    ['recommend topK 500', () => engram.graph.recommend('cai', { topK: 500 }), 'topK'],
    [
      'recommend weights',
      () => engram.graph.recommend('cai', { behaviorWeights: { a: 'x' } as never }),
      'behaviorWeights',
    ],
  ])('refuses %s with a VALIDATION_ERROR naming it', async (_case, call, field) => {
    const error = await engramFailure(call)
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(JSON.stringify(error.detail)).toContain(field)
  })

  it('refuses lookFor beside lookingFor', async () => {
    expect(
      await engramFailure(() => engram.graph.neighbors(emily, { lookFor: 'a', lookingFor: ['b'] })),
    ).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 })
  })
})
