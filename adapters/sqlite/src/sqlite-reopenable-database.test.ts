import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { fixtures } from '@engram/core/testing'
import { createSqliteBrainStore } from './sqlite-brain-store.js'
import type { SqliteDatabaseLike } from './sqlite-database-like.js'
import { reopenableDatabase } from './sqlite-reopenable-database.js'
import { prepareDatabase } from './sqlite-schema.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A reopenable database over a fresh file, counting the connections it opened. */
function openReopenable() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-reopen-'))
  let opened = 0
  const db = reopenableDatabase(() => {
    opened++
    const connection = new Database(join(dir, 'brain.sqlite')) as unknown as SqliteDatabaseLike
    prepareDatabase(connection, 'brain')
    return connection
  })
  cleanups.push(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, opened: () => opened }
}

describe('reopenable sqlite database', () => {
  it('opens again on the next call after a release; statements and transactions keep working', () => {
    const { db, opened } = openReopenable()
    const insert = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)')
    const read = db.prepare('SELECT value FROM meta WHERE key = ?')
    const insertTwo = db.transaction((a: string, b: string) => {
      insert.run(a, 'x')
      insert.run(b, 'y')
    })
    insertTwo('a', 'b')
    expect(db.release()).toBe(true)
    expect(db.connected).toBe(false)
    expect(db.release()).toBe(false)
    expect(read.get('b')).toEqual({ value: 'y' })
    expect(db.connected).toBe(true)
    insertTwo('c', 'd')
    expect(db.prepare('SELECT count(*) AS n FROM meta').get()).toEqual({ n: 4 })
    expect(opened()).toBe(2)
  })

  it('keeps the connection inside a transaction', () => {
    const { db, opened } = openReopenable()
    db.exec('BEGIN IMMEDIATE')
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('k', 'v')
    expect(db.release()).toBe(false)
    db.exec('COMMIT')
    expect(db.release()).toBe(true)
    expect(db.prepare('SELECT value FROM meta').get()).toEqual({ value: 'v' })
    expect(opened()).toBe(2)
  })

  it('never reopens after close', () => {
    const { db, opened } = openReopenable()
    const read = db.prepare('SELECT count(*) AS n FROM meta')
    db.release()
    db.close()
    expect(() => read.get()).toThrow(/not open/)
    expect(db.release()).toBe(false)
    expect(opened()).toBe(1)
  })

  it('throws SQL errors at prepare, as better-sqlite3 does', () => {
    const { db } = openReopenable()
    expect(() => db.prepare('SELECT x FROM nowhere')).toThrow(/no such table/)
  })

  it('lets a brain store release its connection, but not during a sliced transaction', async () => {
    const { db, opened } = openReopenable()
    const store = createSqliteBrainStore('alpha', db, {
      slicedAbove: 10,
      sliceMs: 0,
      release: () => db.release(),
    })
    await store.apply({ passages: [fixtures.passage({ id: 'p0' })] })
    store.release!()
    expect(db.connected).toBe(false)
    const passages = Array.from({ length: 100 }, (_, i) => fixtures.passage({ id: `p${i + 1}` }))
    const applying = store.apply({ passages })
    await new Promise((resolve) => setImmediate(resolve))
    store.release!()
    expect(db.connected).toBe(true)
    await applying
    // Asked during the transaction, done once it ended.
    expect(db.connected).toBe(false)
    expect((await store.stats()).passages).toBe(101)
    store.release!()
    expect(db.connected).toBe(false)
    expect(await store.passages.get(['p42'])).toMatchObject([{ id: 'p42' }])
    expect(opened()).toBe(4)
  })

  it('releases once a checkpoint on the other thread ends, unless the store was used meanwhile', async () => {
    const { db } = openReopenable()
    const checkpoints: (() => void)[] = []
    const store = createSqliteBrainStore('alpha', db, {
      checkpointElsewhere: () => new Promise<void>((resolve) => checkpoints.push(resolve)),
      checkpointIntervalMs: 0,
      release: () => db.release(),
    })
    const endCheckpoint = async () => {
      checkpoints.shift()!()
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
    }
    // A commit hands a checkpoint to the other thread; the engine asks for the release meanwhile.
    await store.apply({ passages: [fixtures.passage({ id: 'p0' })] })
    expect(checkpoints).toHaveLength(1)
    store.release!()
    expect(db.connected).toBe(true)
    await endCheckpoint()
    expect(db.connected).toBe(false)

    // Asked, then the brain is used again before the checkpoint ends: the connection stays.
    await store.apply({ passages: [fixtures.passage({ id: 'p1' })] })
    store.release!()
    expect(await store.passages.get(['p1'])).toMatchObject([{ id: 'p1' }])
    await endCheckpoint()
    expect(db.connected).toBe(true)
  })
})
