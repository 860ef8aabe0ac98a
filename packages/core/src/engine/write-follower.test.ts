import { describe, expect, it } from 'vitest'
import type { Coordination, FeedEntry } from '../contracts/coordination.js'
import type { WriteBatch } from '../contracts/storage-adapter.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { conditionWaiter, fixtures } from '../../testing/index.js'
import { keyedMutex } from './keyed-mutex.js'
import { createWriteFollower } from './write-follower.js'
import { summarizeBatch } from './write-summary.js'

/** A write feed in memory; `announce` false drops announcements (the polling fallback must cover). */
function fakeCoordination(announce = true) {
  const entries = new Map<string, FeedEntry[]>()
  /** Per brain: which incarnation it is in (created again: +1); absent: deleted. */
  const incarnation = new Map<string, number>([['b', 1]])
  const listeners: ((brainId: string, seq: number) => void)[] = []
  const coordination = {
    origin: 'me',
    writes: {
      async heads(ids: string[]) {
        return new Map(
          ids
            .filter((id) => incarnation.has(id))
            .map((id) => [
              id,
              { seq: entries.get(id)?.at(-1)?.seq ?? 0, incarnation: String(incarnation.get(id)) },
            ]),
        )
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
    /** Deleted and created again elsewhere: its numbering restarts. */
    reset(brainId: string) {
      entries.delete(brainId)
      incarnation.set(brainId, (incarnation.get(brainId) ?? 0) + 1)
    },
    /** Deleted elsewhere. */
    remove(brainId: string) {
      entries.delete(brainId)
      incarnation.delete(brainId)
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
  // Re-checked at each call the follower makes into the test: a delivery, a stale brain, a catch-up's end.
  const events = conditionWaiter()
  /** Catch-ups the follower has finished (each runs under the brain's lock). */
  let catchUps = 0
  const follower = createWriteFollower({
    coordination: feed.coordination,
    store: () => Promise.resolve(store),
    async lock(brainId, work) {
      try {
        await lock.run(brainId, work)
      } finally {
        catchUps++
        events.notify()
      }
    },
    async deliver(_brainId, batch) {
      delivered.push(batch)
      events.notify()
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    pollMs: 20,
  })
  follower.setTarget({
    interested: () => interested,
    stale(id) {
      stale.push(id)
      events.notify()
    },
  })
  await follower.start()
  await follower.track('b')
  /** Writes a batch as another process would: to storage, then to the feed. */
  const write = async (batch: WriteBatch, origin = 'other', seq?: number) => {
    await store.apply(batch)
    feed.append('b', origin, batch, seq)
  }
  /** Resolves once `n` more catch-ups than so far have finished. */
  const caughtUp = (n = 1) => {
    const target = catchUps + n
    return events.until(() => catchUps >= target)
  }
  return { follower, feed, delivered, stale, write, until: events.until, caughtUp }
}

describe('write follower', () => {
  it("hands other processes' writes to the listeners in order, read back from storage", async () => {
    const { follower, delivered, write, until } = await setup()
    await write({ passages: [fixtures.passage({ id: 'p1', text: 'one' })] })
    await write({ passages: [fixtures.passage({ id: 'p2', text: 'two' })] })
    await until(() => delivered.length >= 2)
    expect(delivered.map((b) => b.passages!.map((p) => p.text))).toEqual([['one'], ['two']])
    await follower.stop()
  })

  it('skips its own writes (their listeners ran at commit)', async () => {
    const { follower, delivered, write, until } = await setup()
    await write({ passages: [fixtures.passage({ id: 'p1' })] }, 'me')
    await write({ passages: [fixtures.passage({ id: 'p2' })] })
    // Entries are applied in feed order: by the time p2 arrives, p1 was passed over.
    await until(() => delivered.length >= 1)
    expect(delivered.map((b) => b.passages!.map((p) => p.id))).toEqual([['p2']])
    await follower.stop()
  })

  it('applies its own write once when its commit may have landed unheard (uncertain)', async () => {
    const { follower, delivered, write } = await setup(false)
    // Catch-ups by hand only: no poll may run one in between.
    await follower.stop()
    const ids = () => delivered.map((b) => b.passages!.map((p) => p.id))
    await write({ passages: [fixtures.passage({ id: 'p1' })] }, 'me')
    await follower.catchUpLocked('b')
    expect(ids()).toEqual([])
    // The connection dropped during this process's COMMIT, which landed nonetheless.
    follower.uncertain('b')
    await write({ passages: [fixtures.passage({ id: 'p2' })] }, 'me')
    await follower.catchUpLocked('b')
    expect(ids()).toEqual([['p2']])
    // Back to skipping its own writes.
    await write({ passages: [fixtures.passage({ id: 'p3' })] }, 'me')
    await follower.catchUpLocked('b')
    expect(ids()).toEqual([['p2']])
  })

  it('catches up by polling when announcements are lost', async () => {
    const { follower, delivered, write, until } = await setup(false)
    await write({ passages: [fixtures.passage({ id: 'p1' })] })
    // Nothing announces the write: only a poll of the heads can find it.
    await until(() => delivered.length >= 1)
    expect(delivered.map((b) => b.passages!.map((p) => p.id))).toEqual([['p1']])
    await follower.stop()
  })

  it('reads nothing back for a brain whose indexes are not loaded', async () => {
    const { follower, delivered, write, caughtUp } = await setup(true, false)
    // No catch-up runs before the write (nothing is new); the first to end after it has read it.
    const done = caughtUp()
    await write({ passages: [fixtures.passage({ id: 'p1' })] })
    await done
    expect(delivered).toHaveLength(0)
    await follower.stop()
  })

  it('drops indexes that missed pruned writes, and those of a brain created again', async () => {
    const { follower, feed, stale, write, until } = await setup()
    // Entry 1 was pruned: the first entry left is 2.
    await write({ passages: [fixtures.passage({ id: 'p2' })] }, 'other', 2)
    await until(() => stale.length >= 1)
    expect(stale).toEqual(['b'])
    // Deleted and created again elsewhere: its numbering restarts below what was applied.
    feed.reset('b')
    await until(() => stale.length >= 2)
    expect(stale).toEqual(['b', 'b'])
    await follower.stop()
  })

  it("never applies a brain's new incarnation's writes to the old one's indexes, however far they got", async () => {
    const { follower, feed, delivered, stale, write, until } = await setup(false)
    await follower.stop()
    const ids = () => delivered.flatMap((b) => b.passages!.map((p) => p.id))
    await write({ passages: [fixtures.passage({ id: 'p1' })] })
    await write({ passages: [fixtures.passage({ id: 'p2' })] })
    await follower.catchUpLocked('b')
    expect(ids()).toEqual(['p1', 'p2'])
    // Deleted and created again elsewhere, and written past this process's position (2) before it
    // heard of it: by numbers alone, entry 3 would follow entry 2.
    feed.reset('b')
    for (const id of ['q1', 'q2', 'q3']) await write({ passages: [fixtures.passage({ id })] })
    await follower.catchUpLocked('b')
    expect(stale).toEqual(['b'])
    expect(ids()).toEqual(['p1', 'p2'])
    // Followed in the new incarnation from its head on (the indexes are rebuilt from storage).
    expect(follower.seq('b')).toBe(3)
    await write({ passages: [fixtures.passage({ id: 'q4' })] })
    await follower.catchUpLocked('b')
    expect(ids()).toEqual(['p1', 'p2', 'q4'])
    // Deleted elsewhere: dropped, and no longer followed.
    feed.remove('b')
    await follower.catchUpLocked('b')
    await until(() => stale.length >= 2)
    expect(follower.seq('b')).toBeUndefined()
  })
})
