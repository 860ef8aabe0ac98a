import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { fixtures } from '@engram/core/testing'
import { createSqliteBrainStore } from './sqlite-brain-store.js'
import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database-like.js'
import { prepareDatabase } from './sqlite-schema.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A brain store whose database records the SQL of every statement it runs. */
function recordingStore() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-changelog-'))
  const db = new Database(join(dir, 'brain.sqlite')) as unknown as SqliteDatabaseLike
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  cleanups.unshift(() => db.close())
  prepareDatabase(db, 'brain')
  const ran: string[] = []
  const recording: SqliteDatabaseLike = Object.create(db) as SqliteDatabaseLike
  recording.prepare = (sql: string): SqliteStatementLike => {
    const statement = db.prepare(sql)
    const record =
      <A extends unknown[], R>(run: (...args: A) => R) =>
      (...args: A): R => {
        ran.push(sql)
        return run.apply(statement, args)
      }
    return { run: record(statement.run), get: record(statement.get), all: record(statement.all) }
  }
  recording.transaction = db.transaction.bind(db)
  recording.exec = db.exec.bind(db)
  recording.pragma = db.pragma.bind(db)
  return { store: createSqliteBrainStore('alpha', recording, {}), db, ran }
}

describe('sqlite changelog list', () => {
  it('pages the unfiltered changelog by a range of seq, and by OFFSET once the sequence has a gap', async () => {
    const { store, db, ran } = recordingStore()
    const ids = Array.from({ length: 40 }, (_, i) => `c${String(i).padStart(2, '0')}`)
    for (let i = 0; i < ids.length; i += 9)
      // c00 again in every batch: an ignored duplicate must not open a gap.
      await store.apply({
        changelog: [ids[0]!, ...ids.slice(i, i + 9)].map((id) => fixtures.changelog({ id })),
      })
    const pages = async (expected: string[]) => {
      for (let skip = 0; skip <= expected.length + 1; skip += 3) {
        const page = await store.changelog.list({ limit: 7, skip })
        expect(page.total).toBe(expected.length)
        expect(page.items.map((c) => c.id)).toEqual(expected.slice(skip, skip + 7))
      }
    }
    const newestFirst = [...ids].reverse()

    ran.length = 0
    await pages(newestFirst)
    expect(ran.filter((sql) => sql.includes('OFFSET'))).toEqual([])

    // Filters still page by OFFSET over their index.
    const filtered = await store.changelog.list({ limit: 5, skip: 2, types: ['node_created'] })
    expect(filtered.items.map((c) => c.id)).toEqual(newestFirst.slice(2, 7))

    // A gap (no code path deletes one entry; a failed insert may skip a seq): the page is found by
    // position again, so the answer stays right.
    db.prepare("DELETE FROM changelog WHERE id = 'c17'").run()
    ran.length = 0
    await pages(newestFirst.filter((id) => id !== 'c17'))
    expect(ran.filter((sql) => sql.includes('OFFSET')).length).toBeGreaterThan(0)
  })

  it('answers an empty changelog and a skip past its end', async () => {
    const { store } = recordingStore()
    expect(await store.changelog.list({ limit: 10, skip: 0 })).toEqual({ items: [], total: 0 })
    await store.apply({ changelog: [fixtures.changelog({ id: 'only' })] })
    expect(await store.changelog.list({ limit: 10, skip: 1 })).toEqual({ items: [], total: 1 })
    expect((await store.changelog.list({ limit: 10, skip: 0 })).items[0]!.id).toBe('only')
  })
})
