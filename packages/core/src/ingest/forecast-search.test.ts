import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixtures } from '../../testing/fixtures.js'
import type { Embedder } from '../contracts/embedder.js'
import { createEngine } from '../engine/create-engine.js'
import { VectorIndex } from '../indexes/vectors/vector-index.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { INGEST_TEXT } from './ingest-payloads.js'
import type { IngestionComponents } from './pipeline/ingestion-components.js'

/**
 * Issue 27 item 3: no repeated work between a task's forecast (built and embedded outside the brain's
 * write lock) and its locked build. The forecast embeds the candidates but does not search the entity
 * index; the locked build searches once per candidate that no name resolves.
 */

/** The same vector for every text: every stored entity is a perfect match by embedding. */
const same = (texts: string[]) => texts.map(() => Float32Array.of(1, 0, 0, 0))

const embedder: Embedder = {
  kind: 'embedder',
  name: 'fake',
  dimension: 4,
  embed: async (texts) => same(texts),
}

/** The `names` a passage holds, but those inside a longer one (so "Alice Smith" is not also "Alice"). */
const namesIn = (text: string, names: string[]) => {
  const held = names.filter((name) => text.includes(name))
  return held.filter((name) => !held.some((other) => other !== name && other.includes(name)))
}

/** Ingests `text` into the default brain as one task, waits for the queue to drain; the task's id. */
async function ingest(engram: ReturnType<typeof createEngine>, text: string): Promise<string> {
  const { task } = await engram.tasks.submit({
    brainId: 'default',
    kind: INGEST_TEXT,
    payload: fixtures.textPayload(text),
  })
  await engram.tasks.idle()
  return task.id
}

function components(names: string[]): IngestionComponents {
  return {
    parseFile: async () => {
      throw new Error('not used')
    },
    jsonToText: (json) => JSON.stringify(json),
    chunk: (text) => [{ index: 0, text, start: 0, end: text.length }],
    extract: async (input) => {
      const found = [...new Set(input.passages.flatMap((p) => namesIn(p.text, names)))]
      const passageIds = input.passages.map((p) => p.id)
      return {
        entities: found.map((name) => ({ key: name, name, labels: ['PERSON'], passageIds })),
        // Each name found KNOWS the next one.
        relationships: found.slice(1).map((name, i) => ({
          subjectKey: found[i]!,
          name: 'KNOWS',
          objectKey: name,
          passageIds,
        })),
        observations: [],
      }
    },
    embed: async (texts) => same(texts),
    embedderInfo: { name: 'fake', dimension: 4 },
  }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('forecast and locked build', () => {
  it('search the entity index once per unresolved candidate, under the lock, and still merge by it', async () => {
    const engram = createEngine({
      storage: memoryAdapter(),
      version: 'test',
      embedder,
      ingestion: components(['Alice Smith', 'Alice']),
    })
    await engram.start()
    try {
      await ingest(engram, 'Alice Smith arrived.')
      const search = vi.spyOn(VectorIndex.prototype, 'search')
      // "Alice" matches no stored name; by embedding (and nesting names) it is Alice Smith.
      await ingest(engram, 'Alice waved.')
      expect(search).toHaveBeenCalledTimes(1)
      const store = await engram.store('default')
      const stored = await store.entities.scan(null, 10)
      expect(stored.map((e) => e.name)).toEqual(['Alice Smith'])
    } finally {
      await engram.stop({ graceMs: 0 })
    }
  })

  it('embeds a forecast in one embedder call: its passages, entities and similarity candidates', async () => {
    const ingestion = components(['Alice Smith', 'Alice'])
    const calls: string[][] = []
    ingestion.embed = async (texts) => (calls.push(texts), same(texts))
    const engram = createEngine({ storage: memoryAdapter(), version: 'test', embedder, ingestion })
    await engram.start()
    try {
      const embedded = async (text: string) =>
        (await engram.tasks.get('default', await ingest(engram, text)))!.counts.embedded
      expect(await embedded('Alice Smith arrived.')).toBe(2)
      calls.length = 0
      // "Alice" is compared by embedding (no stored name): its text joins the passage's call, and the
      // locked build finds both vectors in the forecast's memo.
      expect(await embedded('Alice waved.')).toBe(2)
      expect(calls).toEqual([['Alice waved.', 'Alice']])
    } finally {
      await engram.stop({ graceMs: 0 })
    }
  })

  it('embeds a name two overlapping tasks of a brain introduce once', async () => {
    const ingestion = components(['Alice Smith'])
    const calls: string[][] = []
    // Each call waits until both tasks have called: their forecasts overlap, as under a loaded queue.
    let both = () => {}
    const overlap = new Promise<void>((resolve) => (both = resolve))
    ingestion.embed = async (texts) => {
      calls.push(texts)
      if (calls.length >= 2) both()
      await overlap
      return same(texts)
    }
    const engram = createEngine({
      storage: memoryAdapter(),
      version: 'test',
      embedder,
      ingestion,
      workers: 2,
      workersPerBrain: 2,
    })
    await engram.start()
    try {
      const submit = (text: string) =>
        engram.tasks.submit({
          brainId: 'default',
          kind: INGEST_TEXT,
          payload: fixtures.textPayload(text),
        })
      const tasks = await Promise.all([submit('Alice Smith arrived.'), submit('Alice Smith left.')])
      await engram.tasks.idle()
      expect(calls.flat().filter((text) => text === 'Alice Smith')).toHaveLength(1)
      const counts = await Promise.all(
        tasks.map(
          async ({ task }) => (await engram.tasks.get('default', task.id))!.counts.embedded,
        ),
      )
      // Two passages and one name: what the embedder got, counted by the task that sent it.
      expect(counts[0]! + counts[1]!).toBe(3)
      const store = await engram.store('default')
      expect((await store.entities.scan(null, 10)).map((e) => e.name)).toEqual(['Alice Smith'])
    } finally {
      await engram.stop({ graceMs: 0 })
    }
  })

  it('forecast only what embedding reads: relationships are built and merged once, under the lock', async () => {
    const engram = createEngine({
      storage: memoryAdapter(),
      version: 'test',
      embedder,
      ingestion: components(['Ann', 'Bob']),
    })
    await engram.start()
    try {
      const store = await engram.store('default')
      const reads = vi.spyOn(store.relationships, 'get')
      await ingest(engram, 'Ann met Bob.')
      // One merge with the stored relationships: the locked build's (the forecast builds none).
      expect(reads).toHaveBeenCalledTimes(1)
      expect((await store.relationships.scan(null, 10)).map((r) => r.name)).toEqual(['KNOWS'])
      const entities = await store.entities.scan(null, 10)
      expect(entities.map((e) => e.name).sort()).toEqual(['Ann', 'Bob'])
      expect(
        await store.vectors.get(
          'entities',
          entities.map((e) => e.uuid),
        ),
      ).toHaveLength(2)
    } finally {
      await engram.stop({ graceMs: 0 })
    }
  })
})
