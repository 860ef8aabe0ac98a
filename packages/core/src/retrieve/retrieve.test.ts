import { describe, expect, it } from 'vitest'
import type { ChannelPlugin, VectorReader } from '../contracts/search-plugins.js'
import type { WriteBatch } from '../contracts/storage-adapter.js'
import { EngramError } from '../errors.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { BrainIndexes } from '../indexes/brain-indexes.js'
import { entityContext } from './entity-context.js'
import { entityInfo } from './entity-info.js'
import { entityStatus } from './entity-status.js'
import { hops } from './hops.js'
import { neighborsAiMode } from './neighbors-ai-mode.js'
import { identifyEntity } from './neighbors-identify.js'
import { neighborsByUuid } from './neighbors.js'
import { recency, structuralSimilarity } from './neighbors-scoring.js'
import { resolveTarget, termCoverage } from './resolve-target.js'
import type { RetrieveDeps } from './retrieve-deps.js'
import { createRetrieveDeps } from './retrieve-deps.js'
import { retrieveRoot } from './retrieve-root.js'
import { createEngine } from '../engine/create-engine.js'
import { builtinCandidateSource } from '../search/search-candidates.js'

const AT = '2025-01-01T00:00:00.000Z'
const NOW = new Date('2025-06-01T00:00:00.000Z')

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
  s: string,
  name: string,
  o: string,
  extra: Partial<Relationship> = {},
): Relationship => ({
  uuid: `${s}-${name}-${o}`,
  subjectUuid: s,
  objectUuid: o,
  name,
  description: null,
  amount: null,
  deprecated: false,
  direction: 'neutral',
  flowKey: null,
  level: null,
  properties: {},
  happenedAt: null,
  lastUpdated: AT,
  sourcePassageIds: [],
  ...extra,
})

/**
 * Alice and Bob work at Acme and live in Berlin; Carol works at Globex and lives in Berlin; Dave lives
 * in Paris; Alice attended the Robotics Summit held in Berlin (an event with two legs). A deprecated
 * edge links Alice to Paris and must never show.
 */
const ENTITIES = [
  entity('alice', 'Alice', ['PERSON'], { aliases: ['Ally'], sourcePassageIds: ['p1'] }),
  entity('bob', 'Bob', ['PERSON'], { properties: { team: 'hardware' } }),
  entity('carol', 'Carol', ['PERSON']),
  entity('dave', 'Dave', ['PERSON']),
  entity('acme', 'Acme', ['COMPANY'], { description: 'robotics company' }),
  entity('globex', 'Globex', ['COMPANY'], { description: 'energy company' }),
  entity('berlin', 'Berlin', ['CITY'], { sourcePassageIds: ['p1'] }),
  entity('paris', 'Paris', ['CITY']),
  entity('summit', 'Robotics Summit 2024', ['EVENT', 'CONFERENCE'], {
    happenedAt: '2024-05-01',
  }),
]
const RELATIONSHIPS = [
  rel('alice', 'WORKS_AT', 'acme'),
  rel('bob', 'WORKS_AT', 'acme'),
  rel('carol', 'WORKS_AT', 'globex'),
  rel('globex', 'LOCATED_IN', 'paris'),
  rel('alice', 'FRIEND_OF', 'bob'),
  rel('alice', 'LIVES_IN', 'berlin'),
  rel('bob', 'LIVES_IN', 'berlin'),
  rel('carol', 'LIVES_IN', 'berlin'),
  rel('dave', 'LIVES_IN', 'paris'),
  rel('alice', 'ATTENDED', 'summit', { flowKey: 'f1', happenedAt: '2024-05-01' }),
  rel('summit', 'HELD_IN', 'berlin', { flowKey: 'f1', happenedAt: '2024-05-01' }),
  rel('alice', 'VISITED', 'paris', { deprecated: true }),
]

async function brain(batch: WriteBatch): Promise<RetrieveDeps> {
  const adapter = memoryAdapter()
  await adapter.open()
  await adapter.catalog.create({
    id: 'b',
    nameKey: 'b',
    tokenHash: 'x',
    tokenLast4: 'xxxx',
    createdAt: AT,
  })
  const store = await adapter.brain('b')
  await store.apply(batch)
  const indexes = await BrainIndexes.build(store)
  return {
    brainId: 'b',
    store,
    indexes,
    candidates: builtinCandidateSource({
      brainId: 'b',
      store,
      indexes,
      vectors: null,
      embed: null,
    }),
    embed: null,
    vectors: null,
    now: () => NOW,
  }
}

const fixture = () =>
  brain({
    entities: ENTITIES,
    relationships: RELATIONSHIPS,
    passages: [
      {
        id: 'p1',
        text: 'Alice moved to Berlin last spring.',
        metadata: {},
        insertedAt: AT,
        brainVersion: 't',
        source: null,
        position: 0,
        start: 0,
        end: 34,
      },
    ],
    observations: [
      { id: 'o1', resourceId: 'p1', text: 'Alice lives in Berlin.', metadata: {}, insertedAt: AT },
      { id: 'o2', resourceId: 'p1', text: 'The weather was mild.', metadata: {}, insertedAt: AT },
    ],
  })

describe('resolveTarget', () => {
  it('tries uuid, then exact name or alias, then the entities channel above the threshold', async () => {
    const deps = await fixture()
    expect((await resolveTarget(deps, 'acme'))?.uuid).toBe('acme')
    expect((await resolveTarget(deps, '  ALICE '))?.uuid).toBe('alice')
    expect((await resolveTarget(deps, 'ally'))?.uuid).toBe('alice')
    expect((await resolveTarget(deps, 'the robotics company'))?.uuid).toBe('acme')
    expect(await resolveTarget(deps, 'robotics kitchen appliance manufacturer')).toBeNull()
    expect(await resolveTarget(deps, '')).toBeNull()
    expect(await resolveTarget(deps, 'x'.repeat(5000))).toBeNull()
    expect(
      (await resolveTarget(deps, 'alice', { accept: (e) => e.labels.includes('CITY') }))?.uuid,
    ).toBeUndefined()
  })

  it('measures term coverage on analysed terms', () => {
    expect(termCoverage('robotics companies', 'Acme robotics company')).toBe(1)
    expect(termCoverage('the of', 'anything')).toBe(0)
  })
})

describe('scores', () => {
  it('SCAN structural similarity is 1 for identical closed neighbourhoods and > 0 for adjacent nodes', () => {
    expect(structuralSimilarity('a', new Set(['b']), 'b', new Set(['a']))).toBe(1)
    expect(structuralSimilarity('a', new Set(['x']), 'b', new Set(['y']))).toBe(0)
    expect(structuralSimilarity('a', new Set(['b', 'c']), 'b', new Set(['a']))).toBeCloseTo(
      2 / Math.sqrt(6),
    )
  })

  it('recency is 1 today, decays with days and is 0 undated', () => {
    expect(recency(NOW.toISOString(), NOW)).toBe(1)
    expect(recency('2025-05-01', NOW)).toBeCloseTo(1 / (1 + Math.log(32)))
    expect(recency(null, NOW)).toBe(0)
    expect(recency('not a date', NOW)).toBe(0)
  })
})

describe('neighbors', () => {
  it('ranks one- and two-hop neighbours by structural similarity and explains most_common', async () => {
    const deps = await fixture()
    const result = await neighborsByUuid(deps, 'alice', { limit: 100 })
    const names = result.neighbors.map((n) => n.neighbor.name)
    expect(names[0]).toBe('Bob')
    expect(names).not.toContain('Paris') // only through the deprecated edge
    expect(names).toContain('Carol') // two hops, through Berlin
    expect(result.count).toBe(result.neighbors.length)
    const scores = result.neighbors.map((n) => n.similarityScore)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    for (const s of scores) expect(s).toBeGreaterThan(0)
    for (const s of scores) expect(s).toBeLessThanOrEqual(1)
    const bob = result.neighbors[0]!
    expect(bob.relationship.name).toBe('FRIEND_OF')
    expect(bob.mostCommon.name).toBe('Acme') // shared with Alice, fewer relationships than Berlin
    expect(bob.similarityScore).toBeCloseTo(4 / Math.sqrt(5 * 4))
    const carol = result.neighbors.find((n) => n.neighbor.name === 'Carol')!
    expect(carol.mostCommon.name).toBe('Berlin')
    expect(carol.relationship.uuid).toBe('carol-LIVES_IN-berlin')
  })

  it('filters and re-ranks by look_for, and cuts to limit after counting', async () => {
    const deps = await fixture()
    const companies = await neighborsByUuid(deps, 'alice', { limit: 10, lookFor: 'company' })
    expect(companies.neighbors.map((n) => n.neighbor.name)).toEqual(['Acme'])
    const limited = await neighborsByUuid(deps, 'alice', { limit: 2 })
    expect(limited.neighbors).toHaveLength(2)
    expect(limited.count).toBeGreaterThan(2)
    await expect(neighborsByUuid(deps, 'nobody', { limit: 10 })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
  })

  it('identifies by name, entity types and properties', async () => {
    const deps = await fixture()
    expect((await identifyEntity(deps, { name: 'bob', entity_types: ['person'] })).uuid).toBe('bob')
    expect((await identifyEntity(deps, { name: 'Bob', team: 'hardware' })).uuid).toBe('bob')
    await expect(identifyEntity(deps, { name: 'Bob', team: 'sales' })).rejects.toMatchObject({
      status: 404,
    })
    await expect(identifyEntity(deps, { name: 'Bob', entity_types: 'CITY' })).rejects.toMatchObject(
      { status: 404 },
    )
    const missing = await identifyEntity(deps, { entity_types: [] }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(EngramError)
    expect((missing as EngramError).status).toBe(422)
  })

  it('ai-mode ranks by each looking_for phrase and keeps only matches', async () => {
    const deps = await fixture()
    const result = await neighborsAiMode(
      deps,
      { name: 'Alice' },
      { lookingFor: ['city', 'robotics'], limit: 10 },
    )
    const names = result.neighbors.map((n) => n.neighbor.name)
    expect(new Set(names)).toEqual(new Set(['Berlin', 'Acme', 'Robotics Summit 2024']))
    expect(names[0]).toBe('Berlin')
  })

  it('blends embedding cosine in when the brain has vectors', async () => {
    const base = await fixture()
    const vec = (...v: number[]) => Float32Array.from(v)
    const table: Record<string, Float32Array> = {
      alice: vec(1, 0),
      bob: vec(0, 1),
      acme: vec(1, 0),
      berlin: vec(1, 1),
    }
    const vectors: VectorReader = {
      async search() {
        return []
      },
      async get(_space, ids) {
        return new Map(ids.flatMap((id) => (table[id] ? [[id, table[id]!] as const] : [])))
      },
    }
    const deps: RetrieveDeps = { ...base, vectors, embed: async () => vec(1, 0) }
    const result = await neighborsByUuid(deps, 'alice', { limit: 100 })
    const score = (name: string) =>
      result.neighbors.find((n) => n.neighbor.name === name)!.similarityScore
    expect(score('Acme')).toBeCloseTo(0.5 * 1 + 0.5 * (3 / Math.sqrt(15)))
    expect(score('Bob')).toBeCloseTo(0.5 * 0 + 0.5 * (4 / Math.sqrt(20)))
    expect(result.neighbors[0]!.neighbor.name).toBe('Acme')
  })
})

describe('entity context', () => {
  it('builds a cycle-free tree to the depth asked', async () => {
    const deps = await fixture()
    const one = await entityContext(deps, 'Alice', 1)
    expect(one.neighborhood.map((b) => b.node.name).sort()).toEqual([
      'Acme',
      'Berlin',
      'Bob',
      'Robotics Summit 2024',
    ])
    expect(one.neighborhood.every((b) => b.neighbors.length === 0)).toBe(true)
    const three = await entityContext(deps, 'Alice', 3)
    const seen: string[] = []
    const walk = (bs: typeof three.neighborhood) =>
      bs.forEach((b) => {
        seen.push(b.node.uuid)
        walk(b.neighbors)
      })
    walk(three.neighborhood)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen).not.toContain('alice')
    const berlin = three.neighborhood.find((b) => b.node.name === 'Berlin')!
    expect(berlin.neighbors.map((b) => b.node.name)).toEqual(['Carol'])
    expect(berlin.neighbors[0]!.neighbors.map((b) => b.node.name)).toEqual(['Globex'])
    expect(three.textContexts).toContain('robotics company')
    const works = one.naturalLanguageWeb.find((w) => 'WORKS_AT' in w)!
    expect(works).toEqual({
      description: '',
      information_direction: 'outgoing',
      WORKS_AT: { Acme: 'robotics company', info: [] },
    })
    await expect(entityContext(deps, 'zzzz', 3)).rejects.toMatchObject({ status: 404 })
  })
})

describe('entity info', () => {
  it('finds the best path for the query, two hops when needed', async () => {
    const deps = await fixture()
    const work = await entityInfo(deps, 'Alice', 'where does Alice work', 3)
    expect(work.path.steps.map((s) => s.node.name)).toEqual(['Acme'])
    expect(work.path.similarity).toBeCloseTo(0.8)
    const city = await entityInfo(deps, 'Alice', 'which city hosted the summit Alice attended', 3)
    expect(city.path.steps.map((s) => s.relationship.name)).toEqual(['ATTENDED', 'HELD_IN'])
    expect(city.path.targetNode.name).toBe('Berlin')
    expect(city.path.children.length).toBeGreaterThan(0)
    expect(city.path.children.every((c) => c.similarity <= city.path.similarity)).toBe(true)
    const none = await entityInfo(deps, 'Alice', 'zebra', 3)
    expect(none.path).toMatchObject({ similarity: 0, steps: [], children: [] })
    expect(none.path.targetNode.uuid).toBe('alice')
    await expect(entityInfo(deps, 'zzzz', 'x', 3)).rejects.toMatchObject({ status: 404 })
  })
})

describe('entity status', () => {
  it('reports existence, live relationships and the observations that name the entity', async () => {
    const deps = await fixture()
    const alice = await entityStatus(deps, 'Alice')
    expect(alice.exists).toBe(true)
    expect(alice.hasRelationships).toBe(true)
    expect(alice.relationships).toHaveLength(4)
    expect(alice.relationships.map(([r]) => r.name)).not.toContain('VISITED')
    expect(alice.observations.map((o) => o.id)).toEqual(['o1'])
    expect((await entityStatus(deps, 'Alice', ['city'])).exists).toBe(false)
    expect((await entityStatus(deps, 'Alice', ['person'])).exists).toBe(true)
    expect(await entityStatus(deps, 'nobody at all')).toEqual({
      exists: false,
      hasRelationships: false,
      node: null,
      observations: [],
      relationships: [],
    })
  })
})

describe('hops', () => {
  it('expands seeds from the entities channel to the degrees asked', async () => {
    const deps = await fixture()
    const one = await hops(deps, 'Acme', 1)
    expect(one.map((t) => t.seed.name)).toEqual(['Acme'])
    expect(one[0]!.hops.map((h) => h.node.name).sort()).toEqual(['Alice', 'Bob'])
    expect(one[0]!.hops.every((h) => h.direction === 'in' && h.next.length === 0)).toBe(true)
    const two = await hops(deps, 'Acme', 2)
    const alice = two[0]!.hops.find((h) => h.node.name === 'Alice')!
    expect(alice.next.map((h) => h.node.name)).not.toContain('Acme')
    expect(alice.next.length + two[0]!.hops.find((h) => h.node.name === 'Bob')!.next.length).toBe(2) // Berlin and the summit, each placed once
    expect(await hops(deps, 'qqqq', 2)).toEqual([])
  })
})

describe('retrieve root', () => {
  it('returns passages, their observations and relationships, preferred labels first', async () => {
    const deps = await fixture()
    const result = await retrieveRoot(deps, 'Alice Berlin', ['city'], 10)
    expect(result.data.map((p) => p.id)).toEqual(['p1'])
    expect(result.observations.map((o) => o.id).sort()).toEqual(['o1', 'o2'])
    expect(result.relationships.length).toBeGreaterThan(0)
    const first = result.relationships[0]!
    expect([...first.subject.labels, ...first.object.labels]).toContain('CITY')
    const names = result.relationships.map((t) => t.predicate.name)
    expect(names).toContain('HELD_IN') // the event's other leg
    expect(names).not.toContain('VISITED')
    const empty = await brain({})
    expect(await retrieveRoot(empty, 'anything', [], 10)).toEqual({
      data: [],
      observations: [],
      relationships: [],
    })
  })
})

describe('createRetrieveDeps', () => {
  it('reads the brain, with dense readers from options when given', async () => {
    const engram = createEngine({ storage: memoryAdapter(), version: 't' })
    await engram.start()
    const plain = await createRetrieveDeps(engram, 'default')
    expect(plain).toMatchObject({ brainId: 'default', vectors: null, embed: null })
    const embed = async () => Float32Array.from([1])
    expect((await createRetrieveDeps(engram, 'default', { embed })).embed).toBe(embed)
    await expect(createRetrieveDeps(engram, 'nope')).rejects.toMatchObject({
      code: 'BRAIN_NOT_FOUND',
    })
    await engram.stop()
  })

  it("takes the search service's own dense readers once the brain has vectors", async () => {
    const embedder = {
      kind: 'embedder' as const,
      name: 'fake',
      dimension: 2,
      embed: async (texts: string[]) => texts.map(() => Float32Array.from([1, 0])),
    }
    const engram = createEngine({ storage: memoryAdapter(), version: 't', embedder })
    await engram.start()
    // No vectors yet: nothing to search, so the text is not embedded.
    expect(await createRetrieveDeps(engram, 'default')).toMatchObject({
      vectors: null,
      embed: null,
    })
    await engram.commit('default', {
      vectors: [{ space: 'passages', id: 'p1', vector: Float32Array.from([1, 0]) }],
    })
    const deps = await createRetrieveDeps(engram, 'default')
    expect(deps.embed).not.toBeNull()
    expect([...(await deps.embed!('x'))]).toEqual([1, 0])
    expect((await deps.vectors!.search('passages', Float32Array.from([1, 0]), 5))[0]?.id).toBe('p1')
    await engram.stop()
  })

  it('asks the search pipeline for hop seeds through the configured channels, plugins included', async () => {
    // A plugin channel that always names Bob: configured as the seed channel, it makes him the seed.
    const onlyBob: ChannelPlugin = {
      kind: 'channel',
      name: 'onlybob',
      yields: 'entities',
      search: async () => [{ name: 'onlybob', signal: 'plugin', items: [{ id: 'bob', score: 1 }] }],
    }
    const engram = createEngine({
      storage: memoryAdapter(),
      version: 't',
      plugins: [onlyBob],
      graphChannels: { seeds: ['plugin:onlybob'] },
    })
    await engram.start()
    await engram.commit('default', { entities: ENTITIES, relationships: RELATIONSHIPS })
    const deps = await createRetrieveDeps(engram, 'default')
    expect((await hops(deps, 'alice', 1)).map((t) => t.seed.uuid)).toEqual(['bob'])
    expect(engram.search.graphChannels.passages).toEqual(['passages'])
    expect(() =>
      createEngine({
        storage: memoryAdapter(),
        version: 't',
        graphChannels: { passages: ['plugin:missing'] },
      }),
    ).toThrow(/Unknown search channel 'plugin:missing'/)
    await engram.stop()
  })
})
