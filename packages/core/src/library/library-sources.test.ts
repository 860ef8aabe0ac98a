import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engramFailure } from '../../test/support/engram-failure.js'
import { testEngram } from '../../test/support/test-engram.js'
import type { EngramLibrary } from './create-engram.js'

/**
 * The library's sources, forget and deletes (docs/library.md): the same operations as REST's
 * `/sources` and `DELETE /model/*`, validated the library's way. What a forget removes is the
 * engine's (src/sources); here only what the methods promise.
 */
let engram: EngramLibrary

beforeAll(async () => {
  engram = await testEngram()
  await engram.brains.create('side')
  await (
    await engram.ingest.text('Notes on kestrels and their hovering.', {
      sourceId: 'birds/kestrel.txt',
      metaKeys: { title: 'Kestrels', shelf: 'b2' },
      skipEnrichment: true,
    })
  ).done()
  await (
    await engram.ingest.file(new TextEncoder().encode('# Herons\n\nHerons wade in shallows.\n'), {
      filename: 'herons.md',
      sourceId: 'birds/herons.md',
    })
  ).done()
  await (
    await engram.ingest.structured([{ object: { name: 'Osprey', type: 'BIRD' } }], {
      sourceId: 'birds:osprey',
    })
  ).done()
})
afterAll(() => engram.close())

describe('sources', () => {
  it('lists sources with text and meta filters, and reads one with its passages', async () => {
    const all = await engram.sources()
    expect(all.items.map((s) => s.id).sort()).toEqual([
      'birds/herons.md',
      'birds/kestrel.txt',
      'birds:osprey',
    ])
    expect((await engram.sources({ queryText: 'KESTREL' })).items.map((s) => s.id)).toEqual([
      'birds/kestrel.txt',
    ])
    expect((await engram.sources({ meta: { shelf: 'b2' } })).total).toBe(1)
    expect(await engram.sources({ limit: 1, skip: 1 })).toMatchObject({ total: 3 })
    const herons = await engram.source('birds/herons.md')
    expect(herons.source).toMatchObject({ filename: 'herons.md', status: 'active' })
    expect(herons.passages.items[0]).toMatchObject({ sourceId: 'birds/herons.md' })
    expect(herons.passages.items[0]!.text).toContain('Herons wade')
    // Another brain holds none of them.
    expect((await engram.brain('side').sources()).total).toBe(0)
  })

  it('refuses bad ids and options with VALIDATION_ERROR, unknown ids with RESOURCE_NOT_FOUND', async () => {
    expect(
      (await engramFailure(() => engram.ingest.text('x', { sourceId: 'a\nb' }))).detail,
    ).toEqual([expect.objectContaining({ loc: ['options', 'sourceId'] })])
    expect((await engramFailure(() => engram.source('x'.repeat(257)))).detail).toEqual([
      expect.objectContaining({ loc: ['id'] }),
    ])
    const meta = await engramFailure(() => engram.sources({ meta: { a: { b: 1 } } as never }))
    expect(meta).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(await engramFailure(() => engram.sources({ limit: 0 }))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    expect(await engramFailure(() => engram.forget('k', { wait: 'yes' } as never))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
    expect(await engramFailure(() => engram.source('no-such-source'))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    expect(await engramFailure(() => engram.brain('side').forget('birds:osprey'))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
  })

  it('forgets a source as a task, and with wait once it ended', async () => {
    const handle = await engram.forget('birds/kestrel.txt')
    const task = await handle.done()
    expect(task.result).toMatchObject({ source_id: 'birds/kestrel.txt', passages: 1 })
    expect(await engramFailure(() => engram.source('birds/kestrel.txt'))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    })
    const waited = await engram.forget('birds/herons.md', { wait: true })
    expect((await waited.status()).status).toBe('completed')
    expect((await engram.sources()).items.map((s) => s.id)).toEqual(['birds:osprey'])
  })
})

describe('model deletes', () => {
  it('delete an entity, a relationship and an observation, answering the counts', async () => {
    const { entity: a } = await engram.model.createEntity({ name: 'Grebe' })
    const { entity: b } = await engram.model.createEntity({ name: 'Pond' })
    const link = await engram.model.createRelationship({
      subjectUuid: a.uuid,
      objectUuid: b.uuid,
      predicateName: 'SWIMS_IN',
    })
    expect(await engram.model.deleteRelationship(link.uuid)).toEqual({
      entities: 0,
      relationships: 1,
      observations: 0,
    })
    expect(await engram.model.deleteEntity(a.uuid)).toMatchObject({ entities: 1 })
    expect((await engram.graph.entityStatus(a.uuid)).exists).toBe(false)

    await (
      await engram.ingest.text('Emily organized the AI Ethics Meetup in London on March 8, 2024.')
    ).done()
    const [observation] = (await engram.records.observations()).items
    expect(await engram.model.deleteObservation(observation!.id)).toEqual({
      entities: 0,
      relationships: 0,
      observations: 1,
    })
    for (const call of [
      () => engram.model.deleteEntity(a.uuid),
      () => engram.model.deleteRelationship(link.uuid),
      () => engram.model.deleteObservation(observation!.id),
    ])
      expect(await engramFailure(call)).toMatchObject({ code: 'RESOURCE_NOT_FOUND' })
    expect(await engramFailure(() => engram.model.deleteEntity(''))).toMatchObject({
      code: 'VALIDATION_ERROR',
    })
  })
})
