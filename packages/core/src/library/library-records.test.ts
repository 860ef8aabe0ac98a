import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engramFailure } from '../../test/support/engram-failure.js'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'

let engram: EngramLibrary
let taskId: string

beforeAll(async () => {
  engram = await testEngram()
  const task = await engram.ingest.text('Emily organized the AI Ethics Meetup in London.')
  taskId = (await task.done()).id
  await (
    await engram.ingest.structured([{ object: { name: 'Teal Kettle', type: 'PRODUCT' } }])
  ).done()
})
afterAll(() => engram.close())

describe('model writes', () => {
  it('creates and updates entities and relationships, with changelog entries', async () => {
    const { entity: ada, created } = await engram.model.createEntity({
      name: 'Ada Lovelace',
      labels: ['PERSON'],
      properties: { born: 1815 },
      happenedAt: '1815-12-10',
    })
    expect(created).toBe(true)
    const again = await engram.model.createEntity({
      name: 'Ada Lovelace',
      description: 'mathematician',
      identificationParams: { born: 1815 },
    })
    expect(again).toMatchObject({ created: false, entity: { uuid: ada.uuid } })
    const { entity: engine } = await engram.model.createEntity({ name: 'Analytical Engine' })
    const link = await engram.model.createRelationship({
      subjectUuid: ada.uuid,
      objectUuid: engine.uuid,
      predicateName: 'WROTE_ABOUT',
      amount: 1,
      direction: 'out',
    })
    expect(link).toMatchObject({ name: 'WROTE_ABOUT', subjectUuid: ada.uuid })
    const renamed = await engram.model.updateEntity({
      uuid: ada.uuid,
      newName: 'Augusta Ada King',
      newProperties: { title: 'Countess' },
      propertiesToRemove: ['born'],
    })
    expect(renamed).toMatchObject({ name: 'Augusta Ada King', properties: { title: 'Countess' } })
    expect(renamed.aliases).toContain('Ada Lovelace')
    const deprecated = await engram.model.updateRelationship({
      uuid: link.uuid,
      newProperties: { deprecated: true },
      newDescription: 'notes on the engine',
    })
    expect(deprecated).toMatchObject({ deprecated: true, description: 'notes on the engine' })
    expect((await engram.search('Augusta', { channels: ['entities'] })).hits.length).toBe(1)
    expect(await engram.records.changelogTypes()).toEqual(
      expect.arrayContaining(['node_created', 'node_properties_updated']),
    )
  })

  it('refuses bad writes with catalogue codes', async () => {
    expect(await engramFailure(() => engram.model.createEntity({ name: '' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    expect(
      await engramFailure(() => engram.model.createEntity({ name: 'x', label: ['A'] } as never)),
    ).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(
      await engramFailure(() =>
        engram.model.createEntity({ name: 'x', properties: { when: new Date() } }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(await engramFailure(() => engram.model.updateEntity({ uuid: 'ghost' }))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    expect(
      await engramFailure(() =>
        engram.model.createRelationship({
          subjectUuid: 'ghost',
          objectUuid: 'ghost',
          predicateName: 'X',
        }),
      ),
    ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' })
    expect(
      await engramFailure(() => engram.model.updateRelationship(undefined as never)),
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
  })
})

describe('record reads', () => {
  it('lists entities, relationships, observations, passages and structured data', async () => {
    const people = await engram.records.entities({ labels: ['PERSON'], queryText: 'emily' })
    expect(people.items.map((e) => e.entity.name)).toContain('Emily')
    expect((await engram.records.entities({ limit: 1 })).items).toHaveLength(1)
    const relationships = await engram.records.relationships({
      queryText: 'Emily',
      queryTarget: 'source',
    })
    expect(relationships.total).toBeGreaterThan(0)
    expect(relationships.items[0]!.subject.name).toMatch(/Emily/)
    const observations = await engram.records.observations()
    expect(observations.total).toBeGreaterThan(0)
    const one = await engram.records.observation(observations.items[0]!.id)
    expect(one.id).toBe(observations.items[0]!.id)
    const passages = await engram.records.passages({ taskId })
    expect(passages.items[0]!.text).toContain('Emily')
    const structured = await engram.records.structuredData({ types: [] })
    expect(structured.total).toBeGreaterThan(0)
    const record = await engram.records.structuredRecord(structured.items[0]!.id)
    expect(record.id).toBe(structured.items[0]!.id)
    expect(await engram.records.structuredTypes()).not.toHaveLength(0)
  })

  it('reads the changelog, tasks and the distinct lists', async () => {
    const changelog = await engram.records.changelog({ types: ['node_created'], limit: 2 })
    expect(changelog.items.length).toBeLessThanOrEqual(2)
    const entry = await engram.records.changelogEntry(changelog.items[0]!.id)
    expect(entry.id).toBe(changelog.items[0]!.id)
    const tasks = await engram.records.tasks({ limit: 10 })
    expect(tasks.map((t) => t.id)).toContain(taskId)
    const done = await engram.records.tasks({ status: ['completed'] })
    expect(done.map((t) => t.id)).toContain(taskId)
    expect(await engram.records.tasks({ status: ['failed'] })).toEqual([])
    expect(await engram.records.entityLabels()).toEqual(expect.arrayContaining(['PERSON']))
    expect(await engram.records.entityPropertyKeys()).toEqual(expect.any(Array))
    expect((await engram.records.relationshipNames()).length).toBeGreaterThan(0)
    expect(await engram.records.observationLabels()).toEqual(expect.any(Array))
  })

  it('refuses bad paging and unknown ids with catalogue codes', async () => {
    for (const call of [
      () => engram.records.entities({ limit: 0 }),
      () => engram.records.entities({ limit: 1001 }),
      () => engram.records.relationships({ skip: -1 }),
      () => engram.records.relationships({ queryTarget: 'both' as never }),
      () => engram.records.observations({ lables: [] } as never),
      () => engram.records.passages({ task: 'x' } as never),
      () => engram.records.tasks({ limit: '5' as never }),
      () => engram.records.observation(''),
    ])
      expect(await engramFailure(call)).toMatchObject({ code: 'VALIDATION_ERROR' })
    for (const call of [
      () => engram.records.observation('ghost'),
      () => engram.records.structuredRecord('ghost'),
      () => engram.records.changelogEntry('ghost'),
    ])
      expect(await engramFailure(call)).toMatchObject({ code: 'RESOURCE_NOT_FOUND' })
  })
})
