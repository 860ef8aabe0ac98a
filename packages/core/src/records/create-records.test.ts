import { beforeEach, describe, expect, it } from 'vitest'
import { fixtures as f } from '../../testing/index.js'
import type { StorageAdapter } from '../contracts/storage-adapter.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { createRecords } from './create-records.js'
import type { Records } from './records.js'

describe('createRecords', () => {
  let adapter: StorageAdapter
  let records: Records
  beforeEach(async () => {
    adapter = memoryAdapter()
    await adapter.catalog.create(f.brain('alpha'))
    await (
      await adapter.brain('alpha')
    ).apply({
      entities: [f.entity(), f.entity({ uuid: 'e2', name: 'London', labels: ['PLACE'] })],
      relationships: [f.relationship()],
      observations: [f.observation()],
      structured: [f.structured()],
      changelog: [f.changelog()],
    })
    records = createRecords({ store: (brainId) => adapter.brain(brainId) })
  })

  it('lists entities with their observations; blank filters do not filter', async () => {
    const page = await records.listEntities('alpha', {
      limit: 10,
      skip: 0,
      labels: [],
      queryText: '',
    })
    expect(page.total).toBe(2)
    const emily = page.items.find((e) => e.entity.uuid === 'e1')!
    expect(emily.observations.map((o) => o.id)).toEqual(['o1'])
    expect(await records.entityObservations('alpha', 'e2')).toEqual([])
  })

  it('passes real filters through', async () => {
    const page = await records.listRelationships('alpha', {
      limit: 10,
      skip: 0,
      queryText: 'london',
      target: 'target',
    })
    expect(page.items.map((t) => t.object.name)).toEqual(['London'])
    expect(
      (await records.listEntities('alpha', { limit: 10, skip: 0, labels: ['PLACE'] })).total,
    ).toBe(1)
  })

  it('gets by id, and answers RESOURCE_NOT_FOUND for an unknown id', async () => {
    expect((await records.getObservation('alpha', 'o1')).text).toBe('Emily likes meetups.')
    expect((await records.getStructured('alpha', 's1')).id).toBe('s1')
    expect((await records.getChangelog('alpha', 'c1')).seq).toBe(1)
    await expect(records.getObservation('alpha', 'nope')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
  })

  it('reports the distinct values behind /meta/* and the type facets', async () => {
    expect(await records.entityLabels('alpha')).toEqual(['PERSON', 'PLACE'])
    expect(await records.relationshipNames('alpha')).toEqual(['LIVES_IN'])
    expect(await records.structuredTypes('alpha')).toEqual(['ingestion_structured'])
    expect(await records.changelogTypes('alpha')).toEqual(['node_created'])
    expect(await records.observationLabels('alpha')).toEqual(['PERSON'])
  })
})
