import { describe, expect, it } from 'vitest'
import { memoryAdapter } from '../../memory-adapter/index.js'
import { fixtures } from '../../../testing/fixtures.js'
import { namesNest, resolveEntities, type EntityCandidate } from './entity-resolver.js'

const NOW = '2024-05-01T00:00:00.000Z'

async function brainStore() {
  const storage = memoryAdapter()
  await storage.open()
  await storage.catalog.create(fixtures.brain('alpha'))
  return storage.brain('alpha')
}

const candidate = (key: string, name: string, labels: string[], passageId = 'p1') =>
  ({ key, name, labels, passageIds: [passageId] }) satisfies EntityCandidate

describe('resolveEntities', () => {
  it('folds candidates of one task by name and alias; every key sees the final merged record', async () => {
    const store = await brainStore()
    await store.apply({
      entities: [fixtures.entity({ uuid: 'robert', name: 'Robert', aliases: ['Bob'] })],
    })
    const resolutions = await resolveEntities(
      store,
      [
        candidate('a', 'Bob', ['PERSON'], 'p1'),
        candidate('b', 'robert', ['CONCEPT'], 'p2'),
        candidate('c', 'Dana', ['PERSON'], 'p3'),
        candidate('d', 'DANA', ['PERSON'], 'p4'),
        candidate('e', 'Lisbon', ['PLACE'], 'p5'),
        candidate('f', 'lisbon', ['ORGANIZATION'], 'p6'),
      ],
      { brainId: 'alpha', now: NOW },
    )
    const robert = resolutions.get('a')!
    expect(robert).toMatchObject({ uuid: 'robert', outcome: 'merged', reason: 'name' })
    expect(resolutions.get('b')!.uuid).toBe('robert')
    // The record under the first key already carries what the later candidate added.
    expect(robert.entity.sourcePassageIds).toEqual(['p1', 'p2'])
    expect(robert.entity.labels).toEqual(['PERSON', 'CONCEPT'])
    expect(resolutions.get('a')!.entity).toEqual(resolutions.get('b')!.entity)

    const dana = resolutions.get('c')!
    expect(dana.outcome).toBe('new')
    expect(resolutions.get('d')!.uuid).toBe(dana.uuid)
    expect(resolutions.get('c')!.entity).toMatchObject({
      name: 'Dana',
      aliases: [],
      sourcePassageIds: ['p3', 'p4'],
    })
    // PLACE and ORGANIZATION are both specific and share nothing: two entities.
    expect(resolutions.get('e')!.uuid).not.toBe(resolutions.get('f')!.uuid)
  })

  it("keeps a candidate's other names as aliases, and a later candidate of one of them resolves to it", async () => {
    const store = await brainStore()
    await store.apply({
      entities: [fixtures.entity({ uuid: 'nato', name: 'NATO', labels: ['ORGANIZATION'] })],
    })
    const resolutions = await resolveEntities(
      store,
      [
        {
          ...candidate('a', 'Washington Institute for Near East Policy', ['ORGANIZATION']),
          aliases: ['WINEP', 'washington institute for near east policy', 'Winep'],
        },
        candidate('b', 'WINEP', ['ORGANIZATION'], 'p2'),
        {
          ...candidate('c', 'NATO', ['ORGANIZATION'], 'p3'),
          aliases: ['North Atlantic Treaty Organization'],
        },
      ],
      { brainId: 'alpha', now: NOW },
    )
    // The name itself and a second spelling of one alias are not kept twice.
    expect(resolutions.get('a')!.entity.aliases).toEqual(['WINEP'])
    expect(resolutions.get('b')!.uuid).toBe(resolutions.get('a')!.uuid)
    expect(resolutions.get('b')!.entity.sourcePassageIds).toEqual(['p1', 'p2'])
    // Merged into a stored entity, the candidate's aliases join the stored ones.
    expect(resolutions.get('c')!.entity).toMatchObject({
      uuid: 'nato',
      aliases: ['North Atlantic Treaty Organization'],
    })
  })

  it('puts a type before the generic label it joins, whichever came first', async () => {
    const store = await brainStore()
    const resolutions = await resolveEntities(
      store,
      [
        candidate('a', 'Apple', ['CONCEPT'], 'p1'),
        candidate('b', 'Apple', ['ORGANIZATION'], 'p2'),
        candidate('c', 'Compaq', ['ORGANIZATION'], 'p2'),
        candidate('d', 'compaq', ['CONCEPT'], 'p3'),
      ],
      { brainId: 'alpha', now: NOW },
    )
    expect(resolutions.get('a')!.entity.labels).toEqual(['ORGANIZATION', 'CONCEPT'])
    expect(resolutions.get('c')!.entity.labels).toEqual(['ORGANIZATION', 'CONCEPT'])
  })

  it('never merges events by name', async () => {
    const store = await brainStore()
    const event = (key: string) =>
      ({ ...candidate(key, 'Dana met Omar', ['EVENT']), eventSeed: `task:${key}` }) as const
    const resolutions = await resolveEntities(store, [event('x'), event('y')], {
      brainId: 'alpha',
      now: NOW,
    })
    expect(resolutions.get('x')!.uuid).not.toBe(resolutions.get('y')!.uuid)
  })

  it('merges by embedding above the threshold, keeps near ties apart as merge candidates', async () => {
    const store = await brainStore()
    await store.apply({
      entities: [
        fixtures.entity({ uuid: 'nyc', name: 'New York City', labels: ['PLACE'] }),
        fixtures.entity({ uuid: 'acme', name: 'Acme Corp', labels: ['ORGANIZATION'] }),
        fixtures.entity({ uuid: 'acme-labs', name: 'Acme Labs', labels: ['ORGANIZATION'] }),
        fixtures.entity({ uuid: 'o1996', name: '1996 Summer Olympics', labels: ['EVENT_NAME'] }),
      ],
    })
    const scores: Record<string, { uuid: string; score: number }[]> = {
      'New York': [{ uuid: 'nyc', score: 0.93 }],
      Acme: [
        { uuid: 'acme', score: 0.95 },
        { uuid: 'acme-labs', score: 0.94 },
      ],
      // Above the threshold, but a PERSON cannot be a PLACE.
      York: [{ uuid: 'nyc', score: 0.91 }],
      Yonkers: [{ uuid: 'nyc', score: 0.85 }],
      // USE-lite's cosine for these two: close, yet the names differ in a distinguishing word.
      '2000 Summer Olympics': [{ uuid: 'o1996', score: 0.957 }],
    }
    const prepared: string[][] = []
    const resolutions = await resolveEntities(
      store,
      [
        candidate('a', 'New York', ['PLACE']),
        candidate('b', 'Acme', ['ORGANIZATION']),
        candidate('c', 'York', ['PERSON']),
        candidate('d', 'Yonkers', ['PLACE']),
        candidate('f', '2000 Summer Olympics', ['EVENT_NAME']),
        // Resolved by name: never compared by embedding.
        candidate('e', 'new york city', ['PLACE']),
      ],
      {
        brainId: 'alpha',
        now: NOW,
        similar: async (c) => scores[c.name] ?? [],
        prepareSimilar: async (cs) => void prepared.push(cs.map((c) => c.name)),
      },
    )
    expect(prepared).toEqual([['New York', 'Acme', 'York', 'Yonkers', '2000 Summer Olympics']])
    expect(resolutions.get('a')).toMatchObject({
      uuid: 'nyc',
      outcome: 'merged',
      reason: 'embedding',
      similarity: 0.93,
    })
    expect(resolutions.get('a')!.entity.aliases).toEqual(['New York'])
    expect(resolutions.get('e')!.uuid).toBe('nyc')
    const acme = resolutions.get('b')!
    expect(acme.outcome).toBe('new')
    expect(acme.mergeCandidates.map((m) => m.uuid)).toEqual(['acme', 'acme-labs'])
    expect(acme.entity.metadata).toMatchObject({ merge_candidates: acme.mergeCandidates })
    expect(resolutions.get('c')!.outcome).toBe('new')
    expect(resolutions.get('d')).toMatchObject({ outcome: 'new', mergeCandidates: [] })
    expect(resolutions.get('f')).toMatchObject({ outcome: 'new', mergeCandidates: [] })
  })

  it('trusts embedding similarity only between names whose content words nest', () => {
    expect(namesNest('New York', 'New York City')).toBe(true)
    expect(namesNest('the LGBTQ support groups', 'LGBTQ Support Group')).toBe(true)
    expect(namesNest('1996 Summer Olympics', '2000 Summer Olympics')).toBe(false)
    expect(namesNest('Super Bowl XLII', 'Super Bowl XLIII')).toBe(false)
    expect(namesNest('the', 'The Who')).toBe(false)
  })

  it('resolves a task of 40,000 candidates over 4,000 names to one entity per name and label', async () => {
    const store = await brainStore()
    const candidates = Array.from({ length: 40_000 }, (_, i) =>
      candidate(`k${i}`, `Concept ${i % 4000}`, ['CONCEPT'], `p${i}`),
    )
    const resolutions = await resolveEntities(store, candidates, { brainId: 'alpha', now: NOW })
    const distinct = new Map([...resolutions.values()].map((r) => [r.uuid, r.entity]))
    expect(distinct.size).toBe(4000)
    expect([...distinct.values()].every((e) => e.sourcePassageIds.length === 10)).toBe(true)
  })
})
