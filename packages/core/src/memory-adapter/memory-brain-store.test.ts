import { describe, expect, it } from 'vitest'
import { fixtures as f } from '../../testing/fixtures.js'
import { emptyBrain } from './memory-brain-data.js'
import { createMemoryBrainStore } from './memory-brain-store.js'

describe('memory relationships.of (indexed by both ends)', () => {
  const setup = async () => {
    const data = emptyBrain()
    const store = createMemoryBrainStore('b', () => data)
    await store.apply({
      entities: ['e1', 'e2', 'e3'].map((uuid) => f.entity({ uuid, name: uuid })),
      relationships: [
        f.relationship(),
        f.relationship({ uuid: 'r2', subjectUuid: 'e3', objectUuid: 'e1' }),
        f.relationship({ uuid: 'r3', subjectUuid: 'e2', objectUuid: 'e2' }),
      ],
    })
    const of = async (uuid: string) =>
      (await store.relationships.of(uuid)).map((r) => r.uuid).sort()
    return { data, store, of }
  }

  it('answers every relationship touching the entity, a self-loop once', async () => {
    const { of } = await setup()
    expect(await of('e1')).toEqual(['r1', 'r2'])
    expect(await of('e2')).toEqual(['r1', 'r3'])
    expect(await of('e3')).toEqual(['r2'])
    expect(await of('nobody')).toEqual([])
  })

  it('follows a relationship written again with other ends, and deletes', async () => {
    const { data, store, of } = await setup()
    await store.apply({ relationships: [f.relationship({ objectUuid: 'e3' })] })
    expect(await of('e2')).toEqual(['r3'])
    expect(await of('e3')).toEqual(['r1', 'r2'])
    await store.apply({ deleteRelationships: ['r2', 'r3'] })
    expect(await of('e1')).toEqual(['r1'])
    expect(await of('e2')).toEqual([])
    expect(data.ends.has('e2')).toBe(false)
  })

  it('returns copies', async () => {
    const { store } = await setup()
    const [r] = await store.relationships.of('e3')
    r!.name = 'CHANGED'
    expect((await store.relationships.get(['r2']))[0]!.name).toBe('LIVES_IN')
  })
})
