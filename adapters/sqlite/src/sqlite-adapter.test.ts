import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
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
})
