import { describe, expect, it } from 'vitest'
import type { WriteBatch } from '../contracts/storage-adapter.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import { BrainIndexes } from '../indexes/brain-indexes.js'
import { contextPack, isHistoryQuestion, packOrdering } from './context-pack.js'
import type { RetrieveDeps } from './retrieve-deps.js'
import { builtinCandidateSource } from '../search/search-candidates.js'
import { candidateDepth } from '../search/search-request.js'

const AT = '2025-01-01T00:00:00.000Z'
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
  name: string,
  o: string,
  extra: Partial<Relationship> = {},
): Relationship => ({
  uuid,
  subjectUuid: s,
  objectUuid: o,
  name,
  description: null,
  amount: null,
  deprecated: false,
  direction: 'neutral',
  flowKey: uuid.split('.')[0]!,
  level: null,
  properties: {},
  happenedAt: null,
  lastUpdated: AT,
  sourcePassageIds: [],
  ...extra,
})
const passage = (id: string, text: string, session: string): Passage => ({
  id,
  text,
  metadata: { session_id: session },
  insertedAt: AT,
  brainVersion: 'test',
  source: 't',
  position: 0,
  start: 0,
  end: text.length,
})

/**
 * Alice lived in Paris (superseded) and now lives in Lyon, each stated by an event citing a passage
 * of its own session; the Paris event is invalid since 2023.
 */
const BATCH: WriteBatch = {
  passages: [
    passage('p1', 'Alice lived in Paris for years.', 'session_1'),
    passage('p2', 'Alice lives in Lyon now.', 'session_2'),
  ],
  entities: [
    entity('alice', 'Alice', ['PERSON']),
    entity('paris', 'Paris', ['CITY']),
    entity('lyon', 'Lyon', ['CITY']),
    entity('e1', 'Alice lived in Paris', ['EVENT'], { happenedAt: '2015-01-01' }),
    entity('e2', 'Alice lives in Lyon', ['EVENT'], { happenedAt: '2023-01-01' }),
  ],
  relationships: [
    rel('f1.a', 'alice', 'LIVED', 'e1', {
      sourcePassageIds: ['p1'],
      properties: { invalid_at: '2023-01-01' },
    }),
    rel('f1.b', 'e1', 'OCCURRED_IN', 'paris', { sourcePassageIds: ['p1'] }),
    rel('f2.a', 'alice', 'LIVES', 'e2', { sourcePassageIds: ['p2'] }),
    rel('f2.b', 'e2', 'OCCURRED_IN', 'lyon', { sourcePassageIds: ['p2'] }),
  ],
}

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
    now: () => new Date('2025-06-01T00:00:00.000Z'),
  }
}

describe('contextPack', () => {
  it('tells history questions from current ones', () => {
    expect(isHistoryQuestion('Where did Alice live before?')).toBe(true)
    expect(isHistoryQuestion('Where does Alice live now?')).toBe(false)
    expect(isHistoryQuestion('Where does Alice live?')).toBe(false)
  })

  it('orders by coverage and hops for a composed question, a possessive of a rare name included', () => {
    const both = { coverage: true, hops: true }
    const neither = { coverage: false, hops: false }
    expect(packOrdering('Who ruled the country where the Bubye River is found?', {})).toEqual(both)
    expect(packOrdering("Who scored for Peter Bonetti's team?", {})).toEqual(neither)
    const rare = () => ({ holding: 2, total: 1000 })
    const common = () => ({ holding: 600, total: 1000 })
    expect(packOrdering("Who scored for Peter Bonetti's team?", {}, rare)).toEqual(both)
    expect(packOrdering("What are Melanie's kids called?", {}, common)).toEqual(neither)
    expect(packOrdering("Who scored for Peter Bonetti's team?", { hops: false }, rare)).toEqual({
      coverage: true,
      hops: false,
    })
  })

  it('drops superseded facts unless the question is about the past, then marks them', async () => {
    const deps = await brain(BATCH)
    const now = await contextPack(deps, 'Where does Alice live now?')
    expect(now.triples.map((t) => t.text)).toEqual([
      'Actor: Alice | LIVES | Event: Alice lives in Lyon @2023-01-01 | OCCURRED_IN | Context: Lyon (session_2)',
    ])
    expect(now.graphSessionIds).toEqual(['session_2'])
    expect(now.triples[0]!.sourceChunkIds).toEqual(['p2'])
    expect(now.triples[0]!.identifiedEntity).toBe('Alice')

    const before = await contextPack(deps, 'Where did Alice live before?')
    const lines = before.triples.map((t) => t.text)
    expect(lines).toContain(
      '[superseded] Actor: Alice | LIVED | Event: Alice lived in Paris @2015-01-01 | OCCURRED_IN | Context: Paris (session_1)',
    )
    expect(before.sourcePassages).toEqual(
      expect.arrayContaining(['Alice lived in Paris for years.', 'Alice lives in Lyon now.']),
    )
    expect(before.sourcePassageIds).toHaveLength(before.sourcePassages.length)
    expect(before.paths).toHaveLength(1)
    expect(before.paths[0]!.sharedEntityName).toBe('Alice')
    expect([...before.paths[0]!.hubs].sort()).toEqual(['e1', 'e2'])
  })

  it("ranks source passages by the text's own hits and the graph walk; without it, passages only facts cite stay with their triples", async () => {
    const deps = await brain({
      ...BATCH,
      passages: [...BATCH.passages!, passage('p3', 'The move was in spring.', 'session_2')],
      relationships: BATCH.relationships!.map((r) =>
        r.uuid === 'f2.a' ? { ...r, sourcePassageIds: ['p2', 'p3'] } : r,
      ),
    })
    const pack = await contextPack(deps, 'Where does Alice live now?')
    expect(pack.triples[0]!.sourceChunkIds).toEqual(['p2', 'p3'])
    expect(pack.sourcePassageIds[0]).toBe('p2')
    // The walk reaches p3 (it shares the move's entities with p2), below the text's own hit.
    expect(pack.sourcePassageIds).toContain('p3')
    const plain = await contextPack(deps, 'Where does Alice live now?', { usePpr: false })
    expect(plain.sourcePassageIds).toContain('p2')
    expect(plain.sourcePassageIds).not.toContain('p3')
  })

  it('walks the candidates a search for its passages would fuse (same depth, so the same fused scores)', async () => {
    const deps = await brain(BATCH)
    const depths: number[] = []
    const candidates = deps.candidates
    const pack = await contextPack(
      {
        ...deps,
        candidates: (set, query, depth) => {
          depths.push(depth)
          return candidates(set, query, depth)
        },
      },
      'Where does Alice live now?',
      { maxPassages: 8 },
    )
    expect(depths).toEqual([candidateDepth({ k: 8 })])
    expect(pack.sourcePassageIds[0]).toBe('p2')
  })

  it('runs without PageRank and with zero budgets', async () => {
    const deps = await brain(BATCH)
    const pack = await contextPack(deps, 'Alice', {
      usePpr: false,
      maxFacts: 0,
      maxPassages: 0,
      historicalLimit: 0,
    })
    expect(pack.triples).toEqual([])
    expect(pack.sourcePassages).toEqual([])
    expect(pack.historicalContext).toEqual([])
    expect(pack.textContext).toBe('')
  })
})
