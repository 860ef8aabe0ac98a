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
import { afterAll, describe, expect, it } from 'vitest'
import { fixtures, runStorageAdapterSuite } from '@engram/core/testing'
import { sqliteAdapter } from './sqlite-adapter.js'

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
    const deadline = Date.now() + 30_000
    while (statSync(file).size <= 4096 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(statSync(file).size).toBeGreaterThan(4096)
    await adapter.close()
    const again = sqliteAdapter({ dataDir })
    await again.open()
    expect((await (await again.brain('alpha')).stats()).passages).toBe(6000)
    await again.close()
  })
})
