import {
  chmodSync,
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
import { fixtures } from '@engram/core/testing'
import { sqliteAdapter } from './sqlite-adapter.js'

/**
 * Issue 11 item 7: the data directory holds every brain's data, so the adapter makes its directories
 * 0700 and its files 0600 (the SQLite files with their `-wal` and `-shm`), and tightens a directory an
 * older version left 0755/0644.
 */
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-modes-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const modeOf = (path: string) => statSync(path).mode & 0o777

/** Every path under `dir` with its mode, directories first. */
function modes(dir: string): Record<string, number> {
  const out: Record<string, number> = {}
  const visit = (p: string, rel: string) => {
    out[rel] = modeOf(p)
    if (statSync(p).isDirectory())
      for (const name of readdirSync(p).sort()) visit(join(p, name), rel ? `${rel}/${name}` : name)
  }
  visit(dir, '')
  return out
}

async function writeSomething(dataDir: string, brainId: string) {
  const adapter = sqliteAdapter({ dataDir })
  await adapter.open()
  await adapter.catalog.create(fixtures.brain(brainId))
  await (
    await adapter.brain(brainId)
  ).apply({ passages: [fixtures.passage()], entities: [fixtures.entity()] })
  return adapter
}

describe.skipIf(process.platform === 'win32')('sqlite adapter file modes', () => {
  it('creates the data directory 0700 and every database file, -wal and -shm 0600', async () => {
    const dataDir = join(tempDir(), 'data')
    const adapter = await writeSomething(dataDir, 'alpha')
    const open = modes(dataDir)
    // While open, SQLite keeps its write-ahead log and shared-memory index beside each database.
    for (const name of [
      'catalog.sqlite',
      'catalog.sqlite-wal',
      'catalog.sqlite-shm',
      'brains/alpha.sqlite',
      'brains/alpha.sqlite-wal',
      'brains/alpha.sqlite-shm',
    ])
      expect(open[name], name).toBe(0o600)
    for (const [path, mode] of Object.entries(open))
      expect(mode, path || '(data dir)').toBe(
        statSync(join(dataDir, path)).isDirectory() ? 0o700 : 0o600,
      )
    await adapter.close()
  })

  it('tightens a data directory an older version wrote 0755/0644 when it opens', async () => {
    const dataDir = tempDir()
    await (await writeSomething(dataDir, 'alpha')).close()
    // As an older version left it: world-readable files (snapshots included) and directories.
    const snapshot = join(dataDir, 'brains', 'alpha.indexes', 'vectors-passages-x')
    mkdirSync(snapshot, { recursive: true })
    writeFileSync(join(snapshot, 'hnsw.bin'), 'x')
    writeFileSync(join(dataDir, 'brains', 'alpha.sqlite-wal'), '')
    for (const path of Object.keys(modes(dataDir)))
      chmodSync(join(dataDir, path), statSync(join(dataDir, path)).isDirectory() ? 0o755 : 0o644)
    // Not the adapter's: left alone.
    writeFileSync(join(dataDir, 'operator-notes.txt'), 'x', { mode: 0o644 })
    chmodSync(join(dataDir, 'operator-notes.txt'), 0o644)

    const loose: string[][] = []
    const adapter = sqliteAdapter({ dataDir, onLoosePermissions: (paths) => loose.push(paths) })
    await adapter.open()
    expect(loose).toEqual([])
    for (const [path, mode] of Object.entries(modes(dataDir))) {
      if (path === 'operator-notes.txt') expect(mode).toBe(0o644)
      else
        expect(mode, path || '(data dir)').toBe(
          statSync(join(dataDir, path)).isDirectory() ? 0o700 : 0o600,
        )
    }
    expect(await (await adapter.brain('alpha')).stats()).toMatchObject({ passages: 1 })
    await adapter.close()
  })

  it('creates a new brain file 0600 after open', async () => {
    const dataDir = tempDir()
    const adapter = await writeSomething(dataDir, 'alpha')
    await adapter.catalog.create(fixtures.brain('beta'))
    await (await adapter.brain('beta')).apply({ passages: [fixtures.passage()] })
    expect(modeOf(join(dataDir, 'brains', 'beta.sqlite'))).toBe(0o600)
    expect(modeOf(join(dataDir, 'brains', 'beta.sqlite-wal'))).toBe(0o600)
    await adapter.close()
  })
})
