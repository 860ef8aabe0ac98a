import { describe, expect, it } from 'vitest'
import type { Coordination, FeedEntry } from '../contracts/coordination.js'
import type { WriteBatch } from '../contracts/storage-adapter.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { fixtures } from '../../testing/index.js'
import { keyedMutex } from './keyed-mutex.js'
import { createWriteFollower } from './write-follower.js'
import { summarizeBatch } from './write-summary.js'

/** A write feed in memory; `announce` false drops announcements (the polling fallback must cover). */
function fakeCoordination(announce = true) {
  const entries = new Map<string, FeedEntry[]>()
  const listeners: ((brainId: string, seq: number) => void)[] = []
  const coordination = {
    origin: 'me',
    writes: {
      async heads(ids: string[]) {
        return new Map(ids.map((id) => [id, entries.get(id)?.at(-1)?.seq ?? 0]))
      },
      async since(brainId: string, seq: number, limit: number) {
        return (entries.get(brainId) ?? []).filter((e) => e.seq > seq).slice(0, limit)
      },
      async subscribe(listener: (brainId: string, seq: number) => void) {
        listeners.push(listener)
        return async () => {}
      },
    },
  } as unknown as Coordination
  return {
    coordination,
    append(brainId: string, origin: string, batch: WriteBatch, seq?: number) {
      const list = entries.get(brainId) ?? []
      const next = seq ?? (list.at(-1)?.seq ?? 0) + 1
      list.push({ seq: next, origin, summary: summarizeBatch(batch)! })
      entries.set(brainId, list)
      if (announce) for (const l of listeners) l(brainId, next)
    },
    reset(brainId: string) {
      entries.delete(brainId)
    },
  }
}

async function setup(announce = true, interested = true) {
  const storage = memoryAdapter()
  await storage.open()
  await storage.catalog.create(fixtures.brain('b'))
  const store = await storage.brain('b')
  const feed = fakeCoordination(announce)
  const delivered: WriteBatch[] = []
  const stale: string[] = []
  const lock = keyedMutex()
  const follower = createWriteFollower({
    coordination: feed.coordination,
    store: () => Promise.resolve(store),
    lock: (brainId, work) => lock.run(brainId, work),
    deliver: async (_brainId, batch) => void delivered.push(batch),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    pollMs: 20,
  })
  follower.setTarget({ interested: () => interested, stale: (id) => void stale.push(id) })
  await follower.start()
  await follower.track('b')
  /** Writes a batch as another process would: to storage, then to the feed. */
  const write = async (batch: WriteBatch, origin = 'other', seq?: number) => {
    await store.apply(batch)
    feed.append('b', origin, batch, seq)
  }
  const settle = () => new Promise((r) => setTimeout(r, 80))
  return { follower, feed, delivered, stale, write, settle }
}

describe('write follower', () => {
  it("hands other processes' writes to the listeners in order, read back from storage", async () => {
    const { follower, delivered, write, settle } = await setup()
    await write({ passages: [fixtures.passage({ id: 'p1', text: 'one' })] })
    await write({ passages: [fixtures.passage({ id: 'p2', text: 'two' })] })
    await settle()
    expect(delivered.map((b) => b.passages!.map((p) => p.text))).toEqual([['one'], ['two']])
    await follower.stop()
  })

  it('skips its own writes (their listeners ran at commit)', async () => {
    const { follower, delivered, write, settle } = await setup()
    await write({ passages: [fixtures.passage({ id: 'p1' })] }, 'me')
    await write({ passages: [fixtures.passage({ id: 'p2' })] })
    await settle()
    expect(delivered.map((b) => b.passages!.map((p) => p.id))).toEqual([['p2']])
    await follower.stop()
  })

  it('catches up by polling when announcements are lost', async () => {
    const { follower, delivered, write, settle } = await setup(false)
    await write({ passages: [fixtures.passage({ id: 'p1' })] })
    await settle()
    expect(delivered).toHaveLength(1)
    await follower.stop()
  })

  it('reads nothing back for a brain whose indexes are not loaded', async () => {
    const { follower, delivered, write, settle } = await setup(true, false)
    await write({ passages: [fixtures.passage({ id: 'p1' })] })
    await settle()
    expect(delivered).toHaveLength(0)
    await follower.stop()
  })

  it('drops indexes that missed pruned writes, and those of a brain created again', async () => {
    const { follower, feed, stale, write, settle } = await setup()
    // Entry 1 was pruned: the first entry left is 2.
    await write({ passages: [fixtures.passage({ id: 'p2' })] }, 'other', 2)
    await settle()
    expect(stale).toEqual(['b'])
    // Deleted and created again elsewhere: its numbering restarts below what was applied.
    feed.reset('b')
    await settle()
    expect(stale).toEqual(['b', 'b'])
    await follower.stop()
  })
})
