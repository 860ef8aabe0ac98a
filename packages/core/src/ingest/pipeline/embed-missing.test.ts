import { describe, expect, it } from 'vitest'
import type { WriteBatch } from '../../contracts/storage-adapter.js'
import { memoryAdapter } from '../../memory-adapter/index.js'
import type { Entity } from '../../model/entity.js'
import { embedMemo, embedMemoOf, embedMissing } from './embed-missing.js'

const vectorOf = (text: string) => Float32Array.from([text.length, 1, 0, 0])

function recordingEmbedder() {
  const calls: string[][] = []
  return {
    calls,
    components: {
      embed: async (texts: string[]) => {
        calls.push(texts)
        return texts.map(vectorOf)
      },
      embedderInfo: { name: 'fake', dimension: 4 },
    },
  }
}

const entity = (uuid: string, name: string, description: string | null = null): Entity => ({
  uuid,
  name,
  description,
  labels: ['PERSON'],
  properties: {},
  metadata: null,
  happenedAt: null,
  lastUpdated: '2024-01-01T00:00:00.000Z',
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
})

const ALICE = '00000000-0000-4000-8000-00000000000a'
const BOB = '00000000-0000-4000-8000-00000000000b'
const CAROL = '00000000-0000-4000-8000-00000000000c'

async function storeWith(entities: Entity[], vectors: string[]) {
  const storage = memoryAdapter()
  await storage.open()
  await storage.catalog.create({
    id: 'b',
    nameKey: 'b',
    tokenHash: 'x',
    tokenLast4: 'xxxx',
    createdAt: '2024-01-01T00:00:00.000Z',
  })
  const store = await storage.brain('b')
  await store.apply({
    entities,
    vectors: entities
      .filter((e) => vectors.includes(e.uuid))
      .map((e) => ({ space: 'entities', id: e.uuid, vector: vectorOf(e.name) })),
  })
  return store
}

describe('embedMissing', () => {
  it('embeds new and changed entities, not those whose stored text and vector are current', async () => {
    // Alice: stored, same text, has a vector. Bob: stored with a vector, gains a description. Carol: stored without a vector.
    const store = await storeWith(
      [entity(ALICE, 'Alice'), entity(BOB, 'Bob'), entity(CAROL, 'Carol')],
      [ALICE, BOB],
    )
    const { calls, components } = recordingEmbedder()
    const batch: WriteBatch = {
      entities: [
        { ...entity(ALICE, 'Alice'), sourcePassageIds: ['p1'] },
        entity(BOB, 'Bob', 'a builder'),
        entity(CAROL, 'Carol'),
      ],
      passages: [
        {
          id: 'p1',
          text: 'Alice smiled.',
          metadata: {},
          insertedAt: '2024-01-01T00:00:00.000Z',
          brainVersion: 'test',
          source: 't',
          position: 0,
          start: 0,
          end: 13,
        },
      ],
    }
    const embedded = await embedMissing(store, batch, components, AbortSignal.timeout(1000))
    expect(embedded).toBe(3)
    expect(calls).toEqual([['Alice smiled.', 'Bob: a builder', 'Carol']])
    expect(batch.vectors?.map((v) => `${v.space}/${v.id}`)).toEqual([
      'passages/p1',
      `entities/${BOB}`,
      `entities/${CAROL}`,
    ])
  })

  it('embeds each text once and takes what the memo holds', async () => {
    const store = await storeWith([], [])
    const { calls, components } = recordingEmbedder()
    const forecast: WriteBatch = { entities: [entity(ALICE, 'Alice')] }
    await embedMissing(store, forecast, components, AbortSignal.timeout(1000))
    // The batch under the lock: Alice under another uuid (a write of its own) and twice-named Bob.
    const batch: WriteBatch = {
      entities: [entity(CAROL, 'Alice'), entity(BOB, 'Bob'), entity(ALICE, 'Bob')],
    }
    const embedded = await embedMissing(
      store,
      batch,
      components,
      AbortSignal.timeout(1000),
      embedMemoOf(forecast),
    )
    expect(embedded).toBe(1)
    expect(calls).toEqual([['Alice'], ['Bob']])
    expect(batch.vectors?.map((v) => [v.id, [...v.vector]])).toEqual([
      [CAROL, [...vectorOf('Alice')]],
      [BOB, [...vectorOf('Bob')]],
      [ALICE, [...vectorOf('Bob')]],
    ])
  })

  it('remembers entities seen current, and still embeds one whose text changed since', async () => {
    const store = await storeWith([entity(ALICE, 'Alice')], [ALICE])
    const { calls, components } = recordingEmbedder()
    const memo = embedMemo()
    await embedMissing(
      store,
      { entities: [entity(ALICE, 'Alice')] },
      components,
      AbortSignal.timeout(1000),
      memo,
    )
    expect(calls).toEqual([])
    // Another write changed Alice's description (and vector) in between.
    await store.apply({
      entities: [entity(ALICE, 'Alice', 'an engineer')],
      vectors: [{ space: 'entities', id: ALICE, vector: vectorOf('Alice: an engineer') }],
    })
    const batch: WriteBatch = { entities: [entity(ALICE, 'Alice', 'a pilot')] }
    expect(await embedMissing(store, batch, components, AbortSignal.timeout(1000), memo)).toBe(1)
    expect(calls).toEqual([['Alice: a pilot']])
  })
})
