import { describe, expect, it } from 'vitest'
import { memoryAdapter } from '../../memory-adapter/index.js'
import { fixtures } from '../../../testing/fixtures.js'
import { resolveEntities, type EntityCandidate } from './entity-resolver.js'

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
