import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { checkpointOnWorker, checkpointThreadId } from './sqlite-checkpoint-worker.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A WAL database with auto-checkpoints off, as a brain connection is while a worker checkpoints. */
function openDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-checkpoint-'))
  const path = join(dir, 'brain.sqlite')
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  db.pragma('wal_autocheckpoint = 0')
  db.pragma(`journal_size_limit = ${64 * 1024}`)
  db.exec('CREATE TABLE t (x BLOB)')
  cleanups.push(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, path }
}

/** Frames in the WAL now (a PASSIVE checkpoint reports them and copies what it can). */
const walFrames = (db: Database.Database) =>
  (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log

describe('checkpointOnWorker', () => {
  it('starts the WAL over although writes go on while it checkpoints', async () => {
    const { db, path } = openDatabase()
    const insert = db.prepare('INSERT INTO t (x) VALUES (?)')
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(Buffer.alloc(4000, i % 251))
    })()
    const bulk = walFrames(db)
    expect(bulk).toBeGreaterThan(2000)
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(8e6)

    // Small commits on this thread for as long as the worker runs, as ingestion keeps writing: each
    // one adds frames that a single PASSIVE checkpoint would leave behind.
    let running = true
    let writes = 0
    const writer = new Promise<void>((resolve) => {
      const next = () => {
        if (!running) return resolve()
        insert.run(Buffer.alloc(100, writes++ % 251))
        setImmediate(next)
      }
      next()
    })
    await checkpointOnWorker(path)
    running = false
    await writer
    expect(writes).toBeGreaterThan(0)

    insert.run(Buffer.alloc(100))
    // Started over: the frames since are only the writes that followed the RESTART, and the file was
    // cut back to the connection's journal_size_limit before them.
    expect(walFrames(db)).toBeLessThan(bulk / 2)
    expect(statSync(`${path}-wal`).size).toBeLessThan(4e6)
    expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(
      2000 + writes + 1,
    )
  })

  it('serves every checkpoint from one thread, which outlives a failed one', async () => {
    const first = openDatabase()
    const second = openDatabase()
    first.db.prepare('INSERT INTO t (x) VALUES (?)').run(Buffer.alloc(10))
    await checkpointOnWorker(first.path)
    const thread = checkpointThreadId()
    expect(thread).not.toBeNull()
    await expect(checkpointOnWorker(join(tmpdir(), 'engram-no-such-brain.sqlite'))).rejects.toThrow(
      /checkpoint failed/,
    )
    second.db.prepare('INSERT INTO t (x) VALUES (?)').run(Buffer.alloc(10))
    await checkpointOnWorker(second.path)
    expect(checkpointThreadId()).toBe(thread)
  })
})
