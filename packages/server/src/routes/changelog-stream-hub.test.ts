import { describe, expect, it } from 'vitest'
import { silentLogger, type ChangelogEntry, type Engram } from '@engram/core'
import { conditionWaiter } from '@engram/core/testing'
import { createChangelogHub } from './changelog-stream-hub.js'

/**
 * The hub over a stand-in engine: one brain's changelog in an array, commits that reach the hub's
 * commit listener (or not, as another process's would not), and optionally shared storage with its
 * write announcements, so that each way entries reach a stream can be driven alone.
 */
function fakeEngine(options: { shared?: boolean } = {}) {
  const entries: ChangelogEntry[] = []
  const commitListeners: ((brainId: string, batch: { changelog?: unknown[] }) => void)[] = []
  const deleteHooks: ((brainId: string) => void)[] = []
  let announce: ((brainId: string, seq: number) => void) | null = null
  const calls = { since: 0, lastSeq: 0 }
  const store = {
    changelog: {
      async since(after: number, limit: number) {
        calls.since += 1
        return entries.filter((e) => e.seq > after).slice(0, limit)
      },
      async lastSeq() {
        calls.lastSeq += 1
        return entries.at(-1)?.seq ?? 0
      },
    },
  }
  const engram = {
    logger: silentLogger,
    storage: {
      coordination: options.shared
        ? {
            writes: {
              async subscribe(listener: (brainId: string, seq: number) => void) {
                announce = listener
                return async () => {
                  announce = null
                }
              },
            },
          }
        : undefined,
    },
    store: async () => store,
    onCommit: (listener: (typeof commitListeners)[number]) => commitListeners.push(listener),
    onBrainDeleted: (hook: (brainId: string) => void) => deleteHooks.push(hook),
  } as unknown as Engram
  return {
    engram,
    calls,
    /** Appends an entry to storage; `notify` hands it to the commit listeners as a local commit. */
    write(type = 'node_created', notify = true) {
      const entry = {
        id: `c${entries.length + 1}`,
        seq: entries.length + 1,
        timestamp: '',
        type,
        change: { type },
      }
      entries.push(entry)
      if (notify) for (const l of commitListeners) l('b', { changelog: [entry] })
    },
    announce: () => announce?.('b', 0),
    reset() {
      entries.length = 0
    },
    deleted: () => deleteHooks.forEach((hook) => hook('b')),
  }
}

/** A sink that records what it gets; `room` entries fit before it reports itself full. */
function sink(waiter: ReturnType<typeof conditionWaiter>, room = Infinity) {
  const got: number[] = []
  const s = { got, start: -1, ended: false, room }
  return {
    state: s,
    sink: {
      start(seq: number) {
        s.start = seq
        waiter.notify()
      },
      push(entry: ChangelogEntry) {
        got.push(entry.seq)
        waiter.notify()
        return got.length < s.room
      },
      end() {
        s.ended = true
        waiter.notify()
      },
    },
  }
}

describe('createChangelogHub', () => {
  it('pauses a full subscriber without losing its place, while the others go on', async () => {
    const fake = fakeEngine()
    const hub = createChangelogHub(fake.engram)
    const waiter = conditionWaiter()
    const slow = sink(waiter, 2)
    const fast = sink(waiter)
    const slowSub = await hub.subscribe('b', 0, slow.sink)
    await hub.subscribe('b', null, fast.sink)
    for (let i = 0; i < 5; i++) fake.write()
    await waiter.until(() => fast.state.got.length === 5)
    expect(slow.state.got).toEqual([1, 2])
    slow.state.room = 4
    slowSub.resume()
    await waiter.until(() => slow.state.got.length === 4)
    slow.state.room = Infinity
    slowSub.resume()
    await waiter.until(() => slow.state.got.length === 5)
    expect(slow.state.got).toEqual([1, 2, 3, 4, 5])
    expect(fast.state.got).toEqual([1, 2, 3, 4, 5])
    await hub.close()
  })

  it('reads once per wake-up for all the brain’s subscribers', async () => {
    const fake = fakeEngine()
    const hub = createChangelogHub(fake.engram)
    const waiter = conditionWaiter()
    const sinks = [sink(waiter), sink(waiter), sink(waiter)]
    for (const s of sinks) await hub.subscribe('b', null, s.sink)
    // Let the reads that joining started settle.
    await new Promise((resolve) => setImmediate(resolve))
    const before = fake.calls.since
    fake.write()
    await waiter.until(() => sinks.every((s) => s.state.got.length === 1))
    expect(fake.calls.since - before).toBe(1)
    await hub.close()
  })

  it('refuses past the limits with 503, frees a slot on close, and ends streams on close', async () => {
    const fake = fakeEngine()
    const hub = createChangelogHub(fake.engram, { maxStreamsPerBrain: 2, maxStreams: 3 })
    const waiter = conditionWaiter()
    const one = sink(waiter)
    const first = await hub.subscribe('b', null, one.sink)
    await hub.subscribe('b', null, sink(waiter).sink)
    await expect(hub.subscribe('b', null, sink(waiter).sink)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retryAfter: 5,
    })
    await hub.subscribe('other', null, sink(waiter).sink)
    await expect(hub.subscribe('third', null, sink(waiter).sink)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    })
    first.close()
    first.close()
    expect(hub.size).toBe(2)
    await hub.subscribe('b', null, sink(waiter).sink)
    const last = sink(waiter)
    await hub.close()
    await expect(hub.subscribe('b', null, last.sink)).rejects.toMatchObject({ status: 503 })
    expect(hub.size).toBe(0)
  })

  it('ends the brain’s streams when it is deleted', async () => {
    const fake = fakeEngine()
    const hub = createChangelogHub(fake.engram)
    const waiter = conditionWaiter()
    const s = sink(waiter)
    await hub.subscribe('b', null, s.sink)
    fake.deleted()
    expect(s.state.ended).toBe(true)
    expect(hub.size).toBe(0)
    await hub.close()
  })

  it('with shared storage, finds other processes’ entries by polling and by announcements', async () => {
    const fake = fakeEngine({ shared: true })
    const hub = createChangelogHub(fake.engram, { pollMs: 10 })
    const waiter = conditionWaiter()
    const s = sink(waiter)
    await hub.subscribe('b', null, s.sink)
    fake.write('node_created', false) // written elsewhere: no commit listener hears it
    await waiter.until(() => s.state.got.length === 1)
    await hub.close()

    // Announcements alone, with a poll too slow to matter.
    const announced = fakeEngine({ shared: true })
    const hub2 = createChangelogHub(announced.engram, { pollMs: 3_600_000 })
    const t = sink(waiter)
    await hub2.subscribe('b', null, t.sink)
    announced.write('node_created', false)
    announced.announce()
    await waiter.until(() => t.state.got.length === 1)
    await hub2.close()
  })

  it('with shared storage, ends a stream whose position is past the brain’s end (created again)', async () => {
    const fake = fakeEngine({ shared: true })
    const hub = createChangelogHub(fake.engram, { pollMs: 10 })
    const waiter = conditionWaiter()
    fake.write()
    fake.write()
    const s = sink(waiter)
    await hub.subscribe('b', 5, s.sink)
    expect(s.state.start).toBe(2) // past the end: starts at it
    fake.reset()
    fake.write('node_created', false)
    await waiter.until(() => s.state.ended)
    expect(s.state.got).toEqual([])
    await hub.close()
  })
})
