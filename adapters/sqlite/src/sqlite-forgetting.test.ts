import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { fixtures } from '@engram/core/testing'
import { sqliteAdapter } from './sqlite-adapter.js'
import { createSqliteBrainStore, type SqliteBrainStoreOptions } from './sqlite-brain-store.js'
import type { SqliteDatabaseLike } from './sqlite-database-like.js'
import { BRAIN_MIGRATIONS, prepareDatabase } from './sqlite-schema.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-forget-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function openStore(options: SqliteBrainStoreOptions = {}) {
  const db = new Database(join(tempDir(), 'brain.sqlite')) as unknown as SqliteDatabaseLike
  prepareDatabase(db, 'brain')
  cleanups.unshift(() => db.close())
  return { store: createSqliteBrainStore('alpha', db, options), db }
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}
const filesHolding = (dir: string, marker: string) =>
  filesUnder(dir).filter((file) => readFileSync(file).includes(Buffer.from(marker)))

describe('sqlite: sources and forgetting', () => {
  it('migrates a brain written before sources: its passages read with a null sourceId', async () => {
    const path = join(tempDir(), 'old.sqlite')
    const old = new Database(path)
    old.exec(BRAIN_MIGRATIONS[0]!)
    old.pragma('user_version = 1')
    const { sourceId: _, ...legacy } = fixtures.passage({ id: 'old' })
    old
      .prepare('INSERT INTO passages (id, source, inserted_at, data) VALUES (?, ?, ?, ?)')
      .run('old', legacy.source, legacy.insertedAt, JSON.stringify(legacy))
    old.close()

    const db = new Database(path) as unknown as SqliteDatabaseLike
    prepareDatabase(db, 'brain')
    cleanups.unshift(() => db.close())
    expect(db.pragma('user_version', { simple: true })).toBe(BRAIN_MIGRATIONS.length)
    const store = createSqliteBrainStore('alpha', db)
    expect(await store.passages.get(['old'])).toEqual([fixtures.passage({ id: 'old' })])
    expect((await store.passages.scan(null, 10))[0]?.sourceId).toBeNull()
    expect((await store.passages.list({ limit: 10, skip: 0 })).items[0]?.sourceId).toBeNull()
    await store.apply({ passages: [fixtures.passage({ id: 'new', sourceId: 'src' })] })
    expect((await store.passages.list({ limit: 10, skip: 0, sourceId: 'src' })).total).toBe(1)
    expect(await store.stats()).toMatchObject({ passages: 2, sources: 0 })
  })

  it('gives records written before sources their evidence: citations, else "model"', async () => {
    const path = join(tempDir(), 'cited.sqlite')
    const old = new Database(path)
    old.exec(BRAIN_MIGRATIONS[0]!)
    old.pragma('user_version = 1')
    const put = old.prepare(
      'INSERT INTO entities (uuid, name, last_updated, data) VALUES (?, ?, ?, ?)',
    )
    for (const e of [
      fixtures.entity({ uuid: 'cited', sourcePassageIds: ['p1', 'p2'] }),
      fixtures.entity({ uuid: 'typed', sourcePassageIds: [] }),
    ])
      put.run(e.uuid, e.name, e.lastUpdated, JSON.stringify(e))
    old.close()

    const db = new Database(path) as unknown as SqliteDatabaseLike
    prepareDatabase(db, 'brain')
    cleanups.unshift(() => db.close())
    const store = createSqliteBrainStore('alpha', db)
    const evidence = await store.evidence.evidenceOf('entity', ['cited', 'typed'])
    expect(evidence.get('cited')?.sort()).toEqual(['p1', 'p2'])
    expect(evidence.get('typed')).toEqual(['model'])
  })

  it('applies a batch of deletes above the threshold in slices', async () => {
    const { store } = openStore({ slicedAbove: 10, sliceMs: 0 })
    const ids = Array.from({ length: 100 }, (_, i) => `p${i}`)
    await store.apply({
      passages: ids.map((id) => fixtures.passage({ id })),
      evidence: ids.map((id) => ({ kind: 'entity' as const, recordId: 'e1', evidenceId: id })),
    })
    let turned = false
    setImmediate(() => (turned = true))
    await store.apply({ deletePassages: ids.slice(0, 60), erasePayloads: ['none'] })
    expect(turned).toBe(true)
    expect((await store.stats()).passages).toBe(40)
    expect((await store.evidence.evidenceOf('entity', ['e1'])).get('e1')).toHaveLength(40)
  })

  it('purges after the checkpoint running on another thread has ended', async () => {
    let finish = () => {}
    let purged = false
    const { store } = openStore({
      slicedAbove: 10,
      checkpointElsewhere: () => new Promise<void>((resolve) => (finish = resolve)),
    })
    await store.apply({
      passages: Array.from({ length: 20 }, (_, i) => fixtures.passage({ id: `p${i}` })),
    })
    const purging = store.purge().then((note) => {
      purged = true
      return note
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(purged).toBe(false)
    finish()
    expect(await purging).toBeNull()
  })

  it('purges without waiting for the next checkpoint of the other thread to be due', async () => {
    // The follow-up of a checkpoint waits on an unref'd timer: a purge that waited for it would hang a
    // library caller's forget for up to an interval, and let Node exit (code 13) with nothing else alive.
    let handedOff = 0
    let finish = () => {}
    const { store } = openStore({
      checkpointIntervalMs: 3_600_000,
      checkpointElsewhere: () => {
        handedOff++
        return new Promise<void>((resolve) => (finish = resolve))
      },
    })
    await store.apply({ passages: [fixtures.passage({ id: 'p1' })] })
    await store.apply({ passages: [fixtures.passage({ id: 'p2' })] })
    expect(handedOff).toBe(1)
    finish()
    await new Promise((resolve) => setImmediate(resolve))
    expect(await store.purge()).toBeNull()
    expect(handedOff).toBe(1)
  })

  it('leaves no byte of a forgotten passage in any file of the data directory', async () => {
    const marker = 'zqxjvmarkerword'
    const dataDir = tempDir()
    const adapter = sqliteAdapter({ dataDir })
    await adapter.open()
    await adapter.catalog.create(fixtures.brain('alpha'))
    const store = await adapter.brain('alpha')
    const filler = (i: number) =>
      fixtures.passage({
        id: `f${i}`,
        sourceId: 'kept',
        text: `Filler passage ${i} about meetups.`,
      })
    // A sliced batch (above 5,000 records: its WAL is checkpointed on a worker thread), a short
    // passage and one long enough for overflow pages.
    await store.apply({
      passages: [
        ...Array.from({ length: 5200 }, (_, i) => filler(i)),
        fixtures.passage({ id: 'm1', sourceId: 'gone', text: `Emily said ${marker} twice.` }),
        fixtures.passage({ id: 'm2', sourceId: 'gone', text: `${marker} `.repeat(2000) }),
      ],
    })
    await store.apply({
      changelog: [
        fixtures.changelog({ id: 'c1', change: { type: 'node_created', quote: marker } }),
      ],
      task: fixtures.task({ id: 't1', payload: { text: marker } }),
    })
    // The test can see the marker where it is.
    expect(filesHolding(dataDir, marker).length).toBeGreaterThan(0)

    await store.apply({
      deletePassages: ['m1', 'm2'],
      redactChangelog: [{ id: 'c1', change: { type: 'redacted' } }],
      erasePayloads: ['t1'],
    })
    expect(await store.purge()).toBeNull()
    expect(statSync(join(dataDir, 'brains', 'alpha.sqlite-wal')).size).toBe(0)
    expect(filesHolding(dataDir, marker)).toEqual([])
    await adapter.close()
    expect(filesHolding(dataDir, marker)).toEqual([])

    const again = sqliteAdapter({ dataDir })
    await again.open()
    expect((await (await again.brain('alpha')).stats()).passages).toBe(5200)
    await again.close()
  })
})
