import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixtures } from '@engram/core/testing'
import type { BrainStore, Entity } from '@engram/core'
import { createSqliteBrainStore, type SqliteBrainStoreOptions } from './sqlite-brain-store.js'
import type { SqliteDatabaseLike } from './sqlite-database-like.js'
import { prepareDatabase } from './sqlite-schema.js'

const require = createRequire(import.meta.url)

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A store over a fresh file; with `sliceMs: 0` a sliced apply gives the event loop a turn after every record. */
function openStore(options: SqliteBrainStoreOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-store-'))
  const db = new Database(join(dir, 'brain.sqlite')) as unknown as SqliteDatabaseLike
  prepareDatabase(db, 'brain')
  cleanups.push(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { store: createSqliteBrainStore('alpha', db, options), db }
}

const passages = (n: number) =>
  Array.from({ length: n }, (_, i) => fixtures.passage({ id: `p${i}`, source: 'big' }))

describe('sqlite brain store: large batches', () => {
  it('applies a batch above the threshold in slices, giving the event loop turns, all of it at once', async () => {
    const { store } = openStore({ slicedAbove: 10, sliceMs: 0 })
    let turns = 0
    const ticking = setInterval(() => turns++, 0)
    const seen: number[] = []
    // Calls made while the batch is being written wait for it: they see none of it or all of it.
    const applying = store.apply({ passages: passages(200), task: fixtures.task({ id: 'big' }) })
    const during = (async () => {
      while (seen.length === 0 || seen.at(-1)! < 200) {
        seen.push((await store.stats()).passages)
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    await applying
    await during
    clearInterval(ticking)
    expect(turns).toBeGreaterThan(0)
    expect(seen.every((n) => n === 0 || n === 200)).toBe(true)
    expect(await store.stats()).toMatchObject({ passages: 200, tasks: 1 })
  })

  it('rolls a failing sliced batch back entirely; a task created meanwhile is kept', async () => {
    const { store } = openStore({ slicedAbove: 10, sliceMs: 0 })
    // entities.name is NOT NULL: the last entity fails after 50 passages were written in the open transaction.
    const broken = { ...fixtures.entity({ uuid: 'bad' }), name: null } as unknown as Entity
    const applying = store.apply({ passages: passages(50), entities: [broken] })
    const created = store.tasks.create(fixtures.task({ id: 'meanwhile' }))
    await expect(applying).rejects.toThrow()
    expect((await created).created).toBe(true)
    expect(await store.stats()).toMatchObject({ passages: 0, entities: 0, tasks: 1 })
  })

  it('applies a batch under the threshold in one synchronous transaction', async () => {
    const { store } = openStore({ slicedAbove: 1000 })
    let turned = false
    setImmediate(() => (turned = true))
    await store.apply({ passages: passages(200) })
    expect(turned).toBe(false)
    expect((await store.stats()).passages).toBe(200)
  })

  it('leaves the checkpoint after a sliced COMMIT to another thread, auto-checkpoints off meanwhile', async () => {
    let finish = () => {}
    const asked: number[] = []
    const { store, db } = openStore({
      slicedAbove: 10,
      checkpointIntervalMs: 0,
      checkpointElsewhere: () => {
        asked.push(Number(db.pragma('wal_autocheckpoint', { simple: true })))
        return new Promise<void>((resolve) => (finish = resolve))
      },
    })
    await store.apply({ passages: passages(50) })
    expect(asked).toEqual([0])
    // Small commits meanwhile do not checkpoint on this thread; their frames go to the next checkpoint.
    await store.apply({ passages: [fixtures.passage({ id: 'small' })] })
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    finish()
    await vi.waitFor(() => expect(asked).toEqual([0, 0]))
    finish()
    await vi.waitFor(() => expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000))
    expect((await store.stats()).passages).toBe(51)
  })
})

describe('sqlite brain store: checkpoints of small commits', () => {
  /** A store whose checkpoints "on another thread" are recorded and end when the test says so. */
  function storeWithCheckpoints(checkpointIntervalMs: number) {
    const ends: (() => void)[] = []
    const asked: number[] = []
    const opened = openStore({
      checkpointIntervalMs,
      checkpointElsewhere: () => {
        asked.push(Number(opened.db.pragma('wal_autocheckpoint', { simple: true })))
        return new Promise<void>((resolve) => ends.push(resolve))
      },
    })
    return { ...opened, asked, endAll: () => ends.splice(0).forEach((end) => end()) }
  }
  const small = (id: string) => ({ passages: [fixtures.passage({ id })] })

  it('hands the checkpoint of a small commit to another thread, never running one on this thread', async () => {
    const { store, db, asked, endAll } = storeWithCheckpoints(60_000)
    await store.apply(small('a'))
    expect(asked).toEqual([0])
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    endAll()
    await vi.waitFor(() => expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000))
    expect((await store.stats()).passages).toBe(1)
  })

  it('hands off at most one checkpoint per interval; commits in between wait for the next one', async () => {
    const { store, asked, endAll } = storeWithCheckpoints(60_000)
    await store.apply(small('a'))
    await store.apply(small('b'))
    endAll()
    await new Promise((resolve) => setTimeout(resolve, 20))
    await store.apply(small('c'))
    // One worker thread for the three commits: the second waits (60 s) behind the first's checkpoint.
    expect(asked).toEqual([0])
    expect((await store.stats()).passages).toBe(3)
  })

  it('follows a checkpoint with another when commits came while it ran', async () => {
    const { store, asked, endAll } = storeWithCheckpoints(0)
    await store.apply(small('a'))
    await store.apply(small('b'))
    expect(asked).toHaveLength(1)
    endAll()
    await vi.waitFor(() => expect(asked).toHaveLength(2))
    endAll()
    await store.apply(small('c'))
    await vi.waitFor(() => expect(asked).toHaveLength(3))
    endAll()
  })

  it('commits task records and meta written outside apply the same way', async () => {
    // Each write below is its own transaction; each holds auto-checkpoints off and hands off.
    const writes: [string, (store: BrainStore, db: SqliteDatabaseLike) => Promise<unknown>][] = [
      ['tasks.create', (store) => store.tasks.create(fixtures.task({ id: 't' }))],
      ['tasks.put', (store) => store.tasks.put(fixtures.task({ id: 't', status: 'started' }))],
      [
        'tasks.deleteEndedBefore',
        async (store, db) => {
          // Something to delete, written by another store on the same file (no checkpoint asked).
          await createSqliteBrainStore('alpha', db).tasks.put(
            fixtures.task({ id: 'old', status: 'completed', endedAt: '2025-01-01T00:00:00.000Z' }),
          )
          return store.tasks.deleteEndedBefore('2026-01-01T00:00:00.000Z')
        },
      ],
      ['meta.set', (store) => store.meta.set('k', 'v')],
    ]
    for (const [name, write] of writes) {
      const { store, db, asked, endAll } = storeWithCheckpoints(60_000)
      await write(store, db)
      expect([name, asked]).toEqual([name, [0]])
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
      endAll()
      await vi.waitFor(() => expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000))
    }
  })

  it('deletes no task without a commit when none has ended before the cutoff', async () => {
    const { store, asked } = storeWithCheckpoints(60_000)
    expect(await store.tasks.deleteEndedBefore('2026-01-01T00:00:00.000Z')).toBe(0)
    // The retention sweep reads every brain at start and hourly: no checkpoint handed off for that.
    expect(asked).toEqual([])
  })

  it('commits as before without another thread', async () => {
    const { store, db } = openStore()
    await store.apply(small('a'))
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
    expect((await store.stats()).passages).toBe(1)
  })
})

/**
 * Holds the write lock of `path` from another thread, as the checkpoint thread's RESTART does: it
 * answers 'locked' once it holds it, and lets go `holdMs` after `go[0]` became 1.
 */
const LOCK_HOLDER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))})
const db = new Database(workerData.path)
db.exec('BEGIN IMMEDIATE')
parentPort.postMessage('locked')
Atomics.wait(workerData.go, 0, 0)
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs)
db.exec('COMMIT')
db.close()
`

describe('sqlite brain store: the write lock held elsewhere', () => {
  it('waits for it on a batch that reads before it writes (a changelog redaction), not SQLITE_BUSY', async () => {
    const { store, db } = openStore()
    await store.apply({
      changelog: [fixtures.changelog({ id: 'c1', change: { type: 'node_created', quote: 'x' } })],
    })
    const path = (db as unknown as { name: string }).name
    const go = new Int32Array(new SharedArrayBuffer(4))
    const holder = new Worker(LOCK_HOLDER, { eval: true, workerData: { path, go, holdMs: 200 } })
    const exited = new Promise((resolve) => holder.once('exit', resolve))
    await new Promise((resolve) => holder.once('message', resolve))
    Atomics.store(go, 0, 1)
    Atomics.notify(go, 0)
    // Synchronous up to the write: it runs while the other thread holds the lock.
    await store.apply({ redactChangelog: [{ id: 'c1', change: { type: 'redacted' } }] })
    await exited
    expect((await store.changelog.get('c1'))?.change).toEqual({ type: 'redacted' })
  })
})
