import type * as WorkerThreads from 'node:worker_threads'
import type { Worker as NodeWorker } from 'node:worker_threads'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { hashingTestEmbedder } from '../../testing/index.js'
import type * as UseLite from '../embedders/use-lite/use-lite-embedder.js'
import type * as ExtractorPool from '../ingest/extract/local-extractor-pool.js'
import { localExtractorPool } from '../ingest/extract/local-extractor-pool.js'
import { createEngram } from './create-engram.js'
import { memoryStorage } from './memory-storage.js'

// Every worker thread started through spawnModuleWorker (use-lite's and the local extractor's), so the
// test can tell which still run after close(); and the closers of the embedders and extractor pools
// createEngram builds (real ones, watched), so it can tell that close() closed each.
const seen = vi.hoisted(() => ({
  workers: [] as NodeWorker[],
  closed: [] as string[],
  built: [] as string[],
}))
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerThreads>()
  class TrackedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args)
      seen.workers.push(this)
    }
  }
  return { ...actual, default: { ...actual, Worker: TrackedWorker }, Worker: TrackedWorker }
})
/** `factory`'s product with its `close` recorded under `name`. */
function watched<A extends unknown[], T extends { close(): Promise<void> }>(
  name: string,
  factory: (...args: A) => T,
) {
  return (...args: A): T => {
    const made = factory(...args)
    seen.built.push(name)
    const close = made.close.bind(made)
    made.close = async () => {
      seen.closed.push(name)
      await close()
    }
    return made
  }
}
vi.mock('../embedders/use-lite/use-lite-embedder.js', async (importOriginal) => {
  const actual = await importOriginal<typeof UseLite>()
  return { ...actual, useLiteEmbedder: watched('use-lite', actual.useLiteEmbedder) }
})
vi.mock('../ingest/extract/local-extractor-pool.js', async (importOriginal) => {
  const actual = await importOriginal<typeof ExtractorPool>()
  return { ...actual, localExtractorPool: watched('extractor', actual.localExtractorPool) }
})

/** A worker that has stopped reports thread id -1 (Node docs, `worker.threadId`). */
const running = () => seen.workers.filter((w) => w.threadId !== -1)

beforeEach(() => {
  seen.workers.length = 0
  seen.closed.length = 0
  seen.built.length = 0
})

describe('close() and the workers createEngram starts', () => {
  it('closes the default embedder and extractor it built', async () => {
    const engram = await createEngram({ storage: memoryStorage() })
    expect(seen.built.sort()).toEqual(['extractor', 'use-lite'])
    await engram.close()
    expect(seen.closed.sort()).toEqual(['extractor', 'use-lite'])
  })

  it('terminates the extractor worker threads that ran a task', async () => {
    const engram = await createEngram({ storage: memoryStorage(), embedder: 'none' })
    await (await engram.ingest.text('Ada Lovelace met Charles Babbage in London.')).done()
    expect(running().length).toBeGreaterThanOrEqual(1)
    await engram.close()
    expect(running()).toEqual([])
  })

  it('closes what it built when the start fails', async () => {
    await expect(
      createEngram({ storage: memoryStorage(), defaultFusion: 'nope' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' })
    expect(seen.closed.sort()).toEqual(['extractor', 'use-lite'])
  })

  it('leaves an extractor and an embedder the caller passed in open', async () => {
    const extractor = localExtractorPool({ workers: 1 })
    seen.built.length = 0
    const engram = await createEngram({
      storage: memoryStorage(),
      extractor,
      embedder: hashingTestEmbedder(),
    })
    await (await engram.ingest.text('Grace Hopper wrote the first compiler.')).done()
    await engram.close()
    expect(seen.built).toEqual([])
    expect(seen.closed).toEqual([])
    expect(running()).toHaveLength(1)
    await extractor.close()
    expect(running()).toEqual([])
  })
})
