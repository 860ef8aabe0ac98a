import { describe, expect, it } from 'vitest'
import type { WriteBatch } from '../contracts/storage-adapter.js'
import { batchFromSummary, summarizeBatch } from '../engine/write-summary.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import type { Passage } from '../model/passage.js'
import { feedTailBatches } from './feed-tail-batches.js'

const AT = '2025-01-01T00:00:00.000Z'
const passage = (id: string, text = `passage ${id}`): Passage => ({
  id,
  text,
  metadata: {},
  insertedAt: AT,
  brainVersion: 't',
  source: null,
  position: 0,
  start: 0,
  end: text.length,
})
const entity = (uuid: string, name = `entity ${uuid}`): Entity => ({
  uuid,
  name,
  description: null,
  labels: ['THING'],
  properties: {},
  metadata: null,
  happenedAt: null,
  lastUpdated: AT,
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
})
const vector = (space: string, id: string, x: number) => ({
  space,
  id,
  vector: Float32Array.of(x, 1 - x),
})

/** Vectors in a stable order: the store returns them in its own. */
const sorted = (batch: WriteBatch): WriteBatch =>
  batch.vectors === undefined
    ? batch
    : { ...batch, vectors: [...batch.vectors].sort((a, b) => a.id.localeCompare(b.id)) }

describe('feedTailBatches', () => {
  it('reads back what batchFromSummary reads, entry by entry, in feed order', async () => {
    const storage = memoryAdapter()
    await storage.open()
    await storage.catalog.create({
      id: 'b',
      nameKey: 'b',
      tokenHash: 'h',
      tokenLast4: 'abcd',
      createdAt: AT,
    })
    const store = await storage.brain('b')
    // Puts, a passage changed later, one deleted later and put again, an entity deleted, a vector
    // replaced and one deleted, spread over more entries than one chunk reads together.
    const writes: WriteBatch[] = [
      {
        passages: [passage('p1'), passage('p2'), passage('p3')],
        entities: [entity('e1'), entity('e2')],
        vectors: [vector('passages', 'p1', 0.1), vector('passages', 'p2', 0.2)],
      },
      { passages: [passage('p1', 'changed text')], vectors: [vector('passages', 'p1', 0.9)] },
      { deletePassages: ['p2'], deleteVectors: [{ space: 'passages', id: 'p2' }] },
      { deleteEntities: ['e2'], entities: [entity('e1', 'renamed')] },
      { passages: [passage('p2', 'back again')] },
      ...Array.from({ length: 600 }, (_, i) => ({ passages: [passage(`q${i % 50}`, `q ${i}`)] })),
    ]
    for (const batch of writes) await store.apply(batch)
    const tail = writes.map((batch) => summarizeBatch(batch)!)

    const bulk: WriteBatch[] = []
    for await (const batch of feedTailBatches(store, tail)) bulk.push(sorted(batch))
    const oneByOne = await Promise.all(
      tail.map(async (s) => sorted(await batchFromSummary(store, s))),
    )
    expect(bulk).toEqual(oneByOne)
    // Records as they are now: p1 changed, p2 back, e2 gone.
    expect(bulk[0]!.passages!.map((p) => p.text)).toEqual([
      'changed text',
      'back again',
      'passage p3',
    ])
    expect(bulk[0]!.entities!.map((e) => e.name)).toEqual(['renamed'])
    expect(bulk[0]!.vectors!.map((v) => v.id)).toEqual(['p1'])
    expect(bulk[2]).toEqual({
      deletePassages: ['p2'],
      deleteVectors: [{ space: 'passages', id: 'p2' }],
    })
  })
})
