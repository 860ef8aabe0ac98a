import { afterEach, describe, expect, it, vi } from 'vitest'
import { hashingTestEmbedder, searchCorpus, searchCorpusBatch } from '../../testing/index.js'
import { fixtures as f } from '../../testing/fixtures.js'
import { createEngine } from '../engine/create-engine.js'
import type { Logger } from '../logger.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { SearchRequest } from '../search/search-request.js'

const embedder = hashingTestEmbedder()

const request = (query: string): SearchRequest => ({
  query,
  k: 10,
  channels: ['passages', 'entities'],
  expand: 'none',
  fusion: 'rrf',
  rerank: 'none',
  profileStages: false,
})

function recordingLogger() {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = []
  const at =
    (level: string) =>
    (obj: object, msg = '') =>
      lines.push({ level, msg, obj: obj as Record<string, unknown> })
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
  return { lines, logger }
}

/** Bytes of one brain of the search corpus, as the index manager estimates them. */
async function corpusBrainBytes(): Promise<number> {
  const { engram } = await engine(undefined, ['x'])
  const bytes = (await engram.indexes.get('x')).estimatedBytes()
  await engram.stop()
  return bytes
}

/** An engine on the memory adapter with one search-corpus brain per id. */
async function engine(indexMemoryBytes: number | undefined, brains: string[]) {
  const { lines, logger } = recordingLogger()
  const engram = createEngine({
    storage: memoryAdapter(),
    version: 't',
    defaultBrain: null,
    embedder,
    logger,
    ...(indexMemoryBytes === undefined ? {} : { indexMemoryMb: indexMemoryBytes / 2 ** 20 }),
  })
  await engram.start()
  for (const id of brains) {
    await engram.brains.create(id)
    await engram.commit(id, await searchCorpusBatch(searchCorpus(`${id}-`), embedder))
  }
  return { engram, lines }
}

const loadedOf = (engram: Awaited<ReturnType<typeof engine>>['engram'], ids: string[]) =>
  ids.filter((id) => engram.indexes.peek(id) !== undefined)

describe('index manager memory budget', () => {
  it('evicts the least recently requested brains and counts what stays', async () => {
    const one = await corpusBrainBytes()
    const { engram, lines } = await engine(2.5 * one, ['a', 'b', 'c', 'd'])
    await engram.indexes.get('a')
    await engram.indexes.get('b')
    await engram.indexes.get('a')
    await engram.indexes.get('c')
    // Evictions run in the background after the request that went over the budget: they end here.
    await engram.indexes.settled()
    expect(loadedOf(engram, ['a', 'b', 'c', 'd'])).toEqual(['a', 'c'])
    // 'a' is now the oldest: 'd' evicts it, and its next request evicts 'c'.
    await engram.indexes.get('d')
    await engram.indexes.settled()
    expect(loadedOf(engram, ['a', 'b', 'c', 'd'])).toEqual(['c', 'd'])
    await engram.indexes.get('a')
    await engram.indexes.settled()
    expect(loadedOf(engram, ['a', 'b', 'c', 'd'])).toEqual(['a', 'd'])
    expect(engram.indexes.stats()).toMatchObject({
      loadedBrains: 2,
      estimatedBytes: 2 * one,
      budgetBytes: 2.5 * one,
      evictions: 3,
    })
    const evicted = lines.filter((l) => l.msg === 'brain indexes evicted')
    expect(evicted.map((l) => [l.level, l.obj.brainId])).toEqual([
      ['debug', 'b'],
      ['debug', 'a'],
      ['debug', 'c'],
    ])
    await engram.stop()
  })

  it('answers a search the same before eviction and after the rebuild', async () => {
    const one = await corpusBrainBytes()
    const { engram } = await engine(1.5 * one, ['a', 'b'])
    const queries = searchCorpus('a-').queries
    const before = []
    for (const q of queries) before.push(await engram.search.search('a', request(q)))
    await engram.search.search('b', request('pasta'))
    await engram.indexes.get('b')
    await engram.indexes.settled()
    expect(engram.indexes.peek('a')).toBeUndefined()
    for (const [i, q] of queries.entries())
      expect((await engram.search.search('a', request(q))).hits).toEqual(before[i]!.hits)
    expect(engram.indexes.stats().evictions).toBe(2)
    await engram.stop()
  })

  it('serves a brain larger than the budget alone, warning once', async () => {
    const one = await corpusBrainBytes()
    const { engram, lines } = await engine(0.5 * one, ['a', 'b'])
    for (const id of ['a', 'b', 'a', 'a']) {
      expect((await engram.search.search(id, request('pasta'))).hits.length).toBeGreaterThan(0)
      await engram.indexes.get(id)
      await engram.indexes.settled()
    }
    expect(loadedOf(engram, ['a', 'b'])).toEqual(['a'])
    const warnings = lines.filter((l) => l.level === 'warn')
    expect(warnings.map((l) => l.obj.brainId)).toEqual(['a', 'b'])
    expect(warnings[0]!.msg).toMatch(/exceed the index memory budget/)
    await engram.stop()
  })

  it('never applies a batch to evicted indexes; the rebuild has every batch', async () => {
    const one = await corpusBrainBytes()
    const { engram } = await engine(1.5 * one, ['a', 'b'])
    const old = await engram.indexes.get('a')
    const size = old.passages.size
    // A batch large enough that its application yields to the event loop, committed while another
    // brain's request evicts 'a'.
    const many = Array.from({ length: 3000 }, (_, i) =>
      f.passage({ id: `a-bulk-${i}`, text: `bulk passage number ${i} about zebras` }),
    )
    await Promise.all([
      engram.commit('a', { passages: many }),
      (async () => {
        await new Promise((resolve) => setImmediate(resolve))
        await engram.indexes.get('b')
      })(),
    ])
    await engram.indexes.get('b')
    await engram.indexes.settled()
    expect(engram.indexes.peek('a')).toBeUndefined()
    const seen = old.passages.size
    // Committed while 'a' is evicted: the listener finds no indexes and leaves the old ones alone.
    await engram.commit('a', {
      passages: [f.passage({ id: 'a-late', text: 'a late passage about okapis' })],
    })
    expect(old.passages.size).toBe(seen)
    const rebuilt = await engram.indexes.get('a')
    expect(rebuilt).not.toBe(old)
    expect(rebuilt.passages.size).toBe(size + many.length + 1)
    const hits = await engram.search.search('a', request('okapis'))
    expect(hits.hits[0]?.id).toBe('a-late')
    await engram.stop()
  })

  it('keeps concurrent requests and commits consistent while brains are evicted', async () => {
    const one = await corpusBrainBytes()
    const ids = ['a', 'b', 'c', 'd']
    const { engram } = await engine(2.5 * one, ids)
    const work = []
    for (let round = 0; round < 10; round++)
      for (const id of ids) {
        work.push(engram.search.search(id, request('pasta')))
        work.push(
          engram.commit(id, {
            passages: [
              f.passage({ id: `${id}-r${round}`, text: `round ${round} note about walruses` }),
            ],
          }),
        )
      }
    await Promise.all(work)
    for (const id of ids) {
      const indexes = await engram.indexes.get(id)
      expect(indexes.passages.size).toBe(6 + 10)
      expect(indexes.passages.search('walruses', 20)).toHaveLength(10)
    }
    await engram.indexes.settled()
    expect(engram.indexes.stats().evictions).toBeGreaterThan(0)
    expect(engram.indexes.stats().loadedBrains).toBeLessThanOrEqual(2)
    await engram.stop()
  })

  it('drops a deleted brain at once, and builds it anew when created again', async () => {
    const { engram } = await engine(undefined, ['a', 'b'])
    await engram.indexes.get('a')
    await engram.indexes.get('b')
    expect(engram.indexes.stats()).toMatchObject({ loadedBrains: 2, budgetBytes: null })
    await engram.brains.delete('a')
    expect(engram.indexes.peek('a')).toBeUndefined()
    expect(engram.indexes.stats().loadedBrains).toBe(1)
    await expect(engram.indexes.get('a')).rejects.toMatchObject({ code: 'BRAIN_NOT_FOUND' })
    await engram.brains.create('a')
    expect((await engram.indexes.get('a')).passages.size).toBe(0)
    expect(engram.indexes.stats().loadedBrains).toBe(2)
    await engram.stop()
  })
})

describe('index manager catalogue reads', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('trusts a brain it read for a second: deleted here at once, elsewhere within the second', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const storage = memoryAdapter()
    const engram = createEngine({ storage, version: 't', defaultBrain: null, embedder })
    await engram.start()
    await engram.brains.create('a')
    await engram.brains.create('b')
    const catalogGet = storage.catalog.get.bind(storage.catalog)
    let reads = 0
    storage.catalog.get = (brainId) => (reads++, catalogGet(brainId))
    const a = await engram.indexes.get('a')
    const built = reads
    for (let i = 0; i < 5; i++) expect(await engram.indexes.get('a')).toBe(a)
    expect(reads).toBe(built)
    vi.advanceTimersByTime(1001)
    expect(await engram.indexes.get('a')).toBe(a)
    expect(reads).toBe(built + 1)

    // Another process sharing the database deletes 'a' (the catalogue alone: no hook runs here).
    await storage.catalog.delete('a')
    expect(await engram.indexes.get('a')).toBe(a)
    vi.advanceTimersByTime(1001)
    await expect(engram.indexes.get('a')).rejects.toMatchObject({ code: 'BRAIN_NOT_FOUND' })

    // Deleted through this engine: gone at once, however recently it was read.
    await engram.indexes.get('b')
    await engram.brains.delete('b')
    await expect(engram.indexes.get('b')).rejects.toMatchObject({ code: 'BRAIN_NOT_FOUND' })
    await engram.stop()
  })

  it('keeps the indexes of a brain across a token rotation, and rebuilds a brain created again', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const { engram } = await engine(undefined, ['a'])
    const before = await engram.indexes.get('a')
    await engram.brains.rotateToken('a')
    vi.advanceTimersByTime(1001)
    expect(await engram.indexes.get('a')).toBe(before)
    await engram.brains.delete('a')
    await engram.brains.create('a')
    expect(await engram.indexes.get('a')).not.toBe(before)
    await engram.stop()
  })
})
