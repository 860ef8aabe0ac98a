import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPrivateFile, makePrivateDir, tightenModes } from './private-files.js'
import { VectorIndex } from './indexes/vectors/vector-index.js'
import { saveVectorIndex } from './indexes/vectors/vector-snapshot.js'

const root = mkdtempSync(join(tmpdir(), 'engram-private-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const modeOf = (path: string) => statSync(path).mode & 0o777

describe.skipIf(process.platform === 'win32')('private files (issue 11 item 7)', () => {
  it('creates directories 0700 and files 0600 whatever the umask leaves', () => {
    const dir = join(root, 'a', 'b')
    makePrivateDir(dir)
    expect(modeOf(join(root, 'a'))).toBe(0o700)
    expect(modeOf(dir)).toBe(0o700)
    const file = join(dir, 'db.sqlite')
    createPrivateFile(file)
    expect(modeOf(file)).toBe(0o600)
    writeFileSync(file, 'kept')
    createPrivateFile(file) // an existing file is neither truncated nor changed
    expect(statSync(file).size).toBe(4)
  })

  it('tightens what an older version wrote, never adds a permission, skips links and missing paths', () => {
    const dir = join(root, 'old')
    mkdirSync(join(dir, 'sub'), { recursive: true, mode: 0o755 })
    chmodSync(dir, 0o755)
    writeFileSync(join(dir, 'sub', 'f'), 'x', { mode: 0o644 })
    writeFileSync(join(dir, 'readonly'), 'x', { mode: 0o444 })
    const outside = join(root, 'outside')
    writeFileSync(outside, 'x', { mode: 0o644 })
    symlinkSync(outside, join(dir, 'link'))
    expect(tightenModes(dir)).toEqual([])
    expect(modeOf(dir)).toBe(0o700)
    expect(modeOf(join(dir, 'sub'))).toBe(0o700)
    expect(modeOf(join(dir, 'sub', 'f'))).toBe(0o600)
    expect(modeOf(join(dir, 'readonly'))).toBe(0o400)
    expect(modeOf(outside)).toBe(0o644)
    expect(tightenModes(join(root, 'missing'))).toEqual([])

    const shallow = join(root, 'shallow')
    mkdirSync(join(shallow, 'sub'), { recursive: true })
    chmodSync(shallow, 0o755)
    chmodSync(join(shallow, 'sub'), 0o755)
    tightenModes(shallow, { recursive: false })
    expect(modeOf(shallow)).toBe(0o700)
    expect(modeOf(join(shallow, 'sub'))).toBe(0o755)
  })

  it('writes vector index snapshots as 0700 directories of 0600 files', async () => {
    const index = new VectorIndex({ dimension: 3 })
    index.add('a', [1, 0, 0])
    index.add('b', [0, 1, 0])
    const parent = join(root, 'brains', 'x.indexes')
    const dir = join(parent, 'vectors-entities-1')
    // A temporary file a crash left behind, with a loose mode.
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    writeFileSync(join(dir, 'vectors.f32.tmp'), 'old', { mode: 0o644 })
    await saveVectorIndex(index, dir)
    expect(modeOf(parent)).toBe(0o700)
    expect(modeOf(dir)).toBe(0o700)
    for (const name of ['hnsw.bin', 'vectors.f32', 'index.json'])
      expect(modeOf(join(dir, name)), name).toBe(0o600)
    const fresh = join(root, 'brains', 'y.indexes', 'vectors-passages-1')
    await saveVectorIndex(index, fresh)
    expect(modeOf(join(root, 'brains', 'y.indexes'))).toBe(0o700)
    expect(modeOf(fresh)).toBe(0o700)
    expect(modeOf(join(fresh, 'hnsw.bin'))).toBe(0o600)
  })
})
