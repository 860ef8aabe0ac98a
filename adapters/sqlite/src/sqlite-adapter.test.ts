import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { fixtures, runStorageAdapterSuite } from '@engram/core/testing'
import Database from 'better-sqlite3'
import { sqliteAdapter } from './sqlite-adapter.js'
import type { SqliteDatabaseLike } from './sqlite-database-like.js'
import { BRAIN_CACHE_KIB, BRAIN_WAL_LIMIT_BYTES } from './sqlite-schema.js'
import type * as checkpointWorker from './sqlite-checkpoint-worker.js'

/**
 * The checkpoints the adapter hands to worker threads, as they are: only watched, so a test can wait
 * for the one a large write started (`checkpointed`) instead of polling the file.
 */
const workerCheckpoints = vi.hoisted(() => {
  const finished: string[] = []
  const waiting = new Set<() => void>()
  return {
    finished(path: string) {
      finished.push(path)
      for (const check of [...waiting]) check()
    },
    /** Resolves once a worker checkpoint of the file at `path` has ended (before the call or after). */
    checkpointed: (path: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!finished.includes(path)) return
          waiting.delete(check)
          resolve()
        }
        waiting.add(check)
        check()
      }),
  }
})
vi.mock('./sqlite-checkpoint-worker.js', async (importOriginal) => {
  const original = await importOriginal<typeof checkpointWorker>()
  return {
    checkpointOnWorker: (path: string) =>
      original.checkpointOnWorker(path).finally(() => workerCheckpoints.finished(path)),
  }
})

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

runStorageAdapterSuite({ name: 'sqlite', create: () => sqliteAdapter({ dataDir: tempDir() }) })

describe('sqlite adapter files', () => {
  it('keeps one file per brain and everything survives a reopen', async () => {
    const dataDir = tempDir()
    const first = sqliteAdapter({ dataDir })
    await first.open()
    await first.catalog.create(fixtures.brain('alpha'))
    await (
      await first.brain('alpha')
    ).apply({ passages: [fixtures.passage()], entities: [fixtures.entity()] })
    await first.close()
    expect(readdirSync(join(dataDir, 'brains')).filter((f) => f.endsWith('.sqlite'))).toEqual([
      'alpha.sqlite',
    ])

    const second = sqliteAdapter({ dataDir })
    await second.open()
    expect((await second.catalog.get('alpha'))?.id).toBe('alpha')
    expect(await (await second.brain('alpha')).stats()).toMatchObject({ passages: 1, entities: 1 })
    await second.catalog.delete('alpha')
    expect(readdirSync(join(dataDir, 'brains')).filter((f) => f.startsWith('alpha'))).toEqual([])
    await second.close()
  })

  it('gives every brain connection the larger page cache and the WAL size limit, after a release and reopen too', async () => {
    const connections = new Map<string, SqliteDatabaseLike[]>()
    const adapter = sqliteAdapter({
      dataDir: tempDir(),
      database: (path) => {
        const db = new Database(path) as unknown as SqliteDatabaseLike
        connections.set(path, [...(connections.get(path) ?? []), db])
        return db
      },
    })
    await adapter.open()
    await adapter.catalog.create(fixtures.brain('alpha'))
    const store = await adapter.brain('alpha')
    await store.stats()
    store.release?.()
    await store.stats()
    const brain = [...connections].find(([path]) => path.endsWith('alpha.sqlite'))![1]
    const catalog = [...connections].find(([path]) => path.endsWith('catalog.sqlite'))![1]
    expect(brain).toHaveLength(2)
    expect(brain[1]!.pragma('cache_size', { simple: true })).toBe(-BRAIN_CACHE_KIB)
    expect(brain[1]!.pragma('journal_size_limit', { simple: true })).toBe(BRAIN_WAL_LIMIT_BYTES)
    // The catalog is tiny: it keeps the library's default.
    expect(catalog[0]!.pragma('cache_size', { simple: true })).not.toBe(-BRAIN_CACHE_KIB)
    await adapter.close()
  })

  it('keeps at most maxOpenBrains connections open, closing the least recently used', async () => {
    /** Open brain connections, by file name. */
    const open = new Map<SqliteDatabaseLike, string>()
    const adapter = sqliteAdapter({
      dataDir: tempDir(),
      maxOpenBrains: 2,
      database: (path) => {
        const db = new Database(path) as unknown as SqliteDatabaseLike
        if (path.endsWith('catalog.sqlite')) return db
        open.set(db, path.split('/').pop()!)
        const close = db.close.bind(db)
        db.close = () => {
          open.delete(db)
          return close()
        }
        return db
      },
    })
    await adapter.open()
    for (const id of ['a', 'b', 'c']) await adapter.catalog.create(fixtures.brain(id))
    const read = async (id: string) => (await adapter.brain(id)).stats()
    await read('a')
    await read('b')
    await read('a')
    expect(open.size).toBe(2)
    // 'b' is the least recently used of the two: opening 'c' closes it, not 'a'.
    await read('c')
    expect(open.size).toBe(2)
    expect([...open.values()]).toEqual(['a.sqlite', 'c.sqlite'])
    // Closed, not broken: its next use opens it again (and closes 'a', now the least recent).
    expect((await read('b')).passages).toBe(0)
    expect([...open.values()]).toEqual(['c.sqlite', 'b.sqlite'])
    await adapter.close()
  })

  it('names a snapshot directory per brain beside its database and removes it with the brain', async () => {
    const dataDir = tempDir()
    const adapter = sqliteAdapter({ dataDir })
    await adapter.open()
    await adapter.catalog.create(fixtures.brain('alpha'))
    const dir = (await adapter.brain('alpha')).snapshotDir!
    expect(dir).toBe(join(dataDir, 'brains', 'alpha.indexes'))
    // The engine creates it and writes snapshot files in it.
    mkdirSync(join(dir, 'vectors-passages-x'), { recursive: true })
    writeFileSync(join(dir, 'vectors-passages-x', 'hnsw.bin'), 'x')
    await adapter.catalog.delete('alpha')
    expect(existsSync(dir)).toBe(false)
    await adapter.close()
  })
})

describe('sqlite adapter: a large write', () => {
  it('checkpoints the WAL of a large batch on a worker thread; the data survives a reopen', async () => {
    const dataDir = tempDir()
    const adapter = sqliteAdapter({ dataDir })
    await adapter.open()
    await adapter.catalog.create(fixtures.brain('alpha'))
    const passages = Array.from({ length: 6000 }, (_, i) => fixtures.passage({ id: `p${i}` }))
    await (await adapter.brain('alpha')).apply({ passages })
    // The database file itself fills once the worker has copied the WAL into it (the adapter is still open).
    const file = join(dataDir, 'brains', 'alpha.sqlite')
    await workerCheckpoints.checkpointed(file)
    expect(statSync(file).size).toBeGreaterThan(4096)
    await adapter.close()
    const again = sqliteAdapter({ dataDir })
    await again.open()
    expect((await (await again.brain('alpha')).stats()).passages).toBe(6000)
    await again.close()
  })
})
