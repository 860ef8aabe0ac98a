import { describe, expect, it } from 'vitest'
import { createEngine } from '../../engine/create-engine.js'
import { memoryAdapter } from '../../memory-adapter/index.js'
import type { StorageAdapter } from '../../contracts/storage-adapter.js'
import { INGEST_STRUCTURED, type StructuredIngestPayload } from '../ingest-payloads.js'
import type { IngestionComponents } from '../pipeline/ingestion-components.js'

const noExtractor: IngestionComponents = {
  parseFile: async () => {
    throw new Error('not used')
  },
  jsonToText: (json) => JSON.stringify(json),
  chunk: (text) => [{ index: 0, text, start: 0, end: text.length }],
  extract: async () => {
    throw new Error('deterministic mode must not run the extractor')
  },
  embed: null,
  embedderInfo: null,
}

const payload: StructuredIngestPayload = {
  items: [
    {
      subject: { name: 'Emily', type: 'person' },
      subjEvent: { name: 'organized' },
      event: { name: 'AI Ethics Meetup', type: 'meetup', happenedAt: '2024-03-08' },
      eventObj: { name: 'held in' },
      object: { name: 'London', type: 'place' },
    },
    {
      subject: { name: 'Emily', type: 'person' },
      subjEvent: { name: 'lives in' },
      object: { name: 'London', type: 'place' },
    },
    {
      subject: { name: 'Bob', type: 'person' },
      subjEvent: { name: 'knows' },
      object: { name: 'emily', type: 'person' },
    },
  ],
  anchor: null,
  text: null,
  mode: 'deterministic',
  sourceTimestamp: '2024-03-09T00:00:00.000Z',
}

async function start(storage: StorageAdapter) {
  const engram = createEngine({ storage, version: 'test', ingestion: noExtractor })
  await engram.start()
  return engram
}

describe('structured ingestion (deterministic)', () => {
  it('builds the event-centric graph, one structured record and the changelog', async () => {
    const engram = await start(memoryAdapter())
    const { task } = await engram.tasks.submit({
      brainId: 'default',
      kind: INGEST_STRUCTURED,
      payload,
    })
    await engram.tasks.idle()
    const done = await engram.tasks.get('default', task.id)
    expect(done).toMatchObject({
      status: 'completed',
      result: { entities: 3, events: 1, relationships: 4, structured: 1 },
    })

    const store = await engram.store('default')
    const entities = (await store.entities.list({ limit: 100, skip: 0 })).items
    expect(entities.map((e) => e.name).sort()).toEqual([
      'AI Ethics Meetup',
      'Bob',
      'Emily',
      'London',
    ])
    const event = entities.find((e) => e.labels.includes('EVENT'))!
    expect(event.happenedAt).toBe('2024-03-08')
    const legs = await store.relationships.of(event.uuid)
    expect(legs).toHaveLength(2)
    expect(new Set(legs.map((l) => l.flowKey)).size).toBe(1)
    expect(legs[0]!.flowKey).not.toBeNull()

    const structured = await store.structured.get(task.id)
    expect(structured?.types).toEqual(['ingestion_structured'])
    const log = (await store.changelog.list({ limit: 100, skip: 0 })).items
    expect(log.filter((e) => e.type === 'node_created')).toHaveLength(4)
    expect(log.filter((e) => e.type === 'relationship_created')).toHaveLength(4)
  })

  it('writes nothing twice when the task runs again after a crash', async () => {
    const storage = memoryAdapter()
    const engram = await start(storage)
    const { task } = await engram.tasks.submit({
      brainId: 'default',
      kind: INGEST_STRUCTURED,
      payload,
    })
    await engram.tasks.idle()
    const store = await engram.store('default')
    const before = await store.stats()
    // Pretend the process died after persisting but before the task was marked completed.
    const record = (await store.tasks.get(task.id))!
    await store.tasks.put({ ...record, status: 'started', stage: 'indexing', endedAt: null })
    const again = await start(storage)
    await again.tasks.idle()
    expect((await again.tasks.get('default', task.id))?.status).toBe('completed')
    const after = await store.stats()
    expect(after).toEqual(before)
  })

  it('fails the task when the anchor uuid does not exist', async () => {
    const engram = await start(memoryAdapter())
    const { task } = await engram.tasks.submit({
      brainId: 'default',
      kind: INGEST_STRUCTURED,
      payload: { ...payload, anchor: { uuid: '00000000-0000-4000-8000-000000000000' } },
    })
    await engram.tasks.idle()
    expect(await engram.tasks.get('default', task.id)).toMatchObject({
      status: 'failed',
      stage: 'failed',
    })
  })

  it('uses the anchor as the actor of items that have no subject', async () => {
    const engram = await start(memoryAdapter())
    const { task } = await engram.tasks.submit({
      brainId: 'default',
      kind: INGEST_STRUCTURED,
      payload: {
        ...payload,
        anchor: { name: 'Alice', type: 'person' },
        items: [
          {
            event: { name: 'Bought a bike', type: 'purchase' },
            eventObj: { name: 'item' },
            object: { name: 'Bike', type: 'product' },
          },
        ],
      },
    })
    await engram.tasks.idle()
    expect((await engram.tasks.get('default', task.id))?.result).toMatchObject({
      relationships: 2,
      events: 1,
    })
  })
})
