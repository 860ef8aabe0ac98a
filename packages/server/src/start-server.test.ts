import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { WriteBatch } from '@engram/core'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'
import { startServer } from './start-server.js'

const TOKEN = 'spat_start-server-test-token-0123'
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function config(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    ENGRAM_DATA_DIR: dataDir,
    SERVICEPAT_TOKEN: TOKEN,
    PORT: '0',
    EMBEDDER: 'none',
    EXTRACTOR_WORKERS: '0',
    LOG_LEVEL: 'silent',
    ...env,
  })
}

/** 30 passages with small synthetic vectors (an integer hash per coordinate). */
function vectors(): WriteBatch {
  const ids = Array.from({ length: 30 }, (_, i) => `p${i}`)
  const vector = (seed: number) =>
    Float32Array.from(
      { length: 8 },
      (_, i) => (Math.imul(seed * 0x9e3779b1 + i * 0x85ebca6b + 1, 0xc2b2ae35) >>> 0) / 2 ** 32,
    )
  return {
    passages: ids.map((id, position) => ({
      id,
      text: `passage number ${position}`,
      metadata: {},
      insertedAt: '2025-01-01T00:00:00.000Z',
      brainVersion: 't',
      source: null,
      position,
      start: 0,
      end: 10,
    })),
    vectors: ids.map((id, i) => ({ space: 'passages', id, vector: vector(i) })),
  }
}

const snapshotsOf = (dataDir: string, brainId: string) => {
  const dir = join(dataDir, 'brains', `${brainId}.indexes`)
  return existsSync(dir) ? readdirSync(dir) : null
}

describe('startServer: index snapshots', () => {
  it('saves them on close and loads them (warming the brain) on the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-start-'))
    dirs.push(dataDir)
    const first = await startServer(config(dataDir), () => {})
    await first.engram.commit('default', vectors())
    await first.engram.indexes.get('default')
    await first.close()
    expect(snapshotsOf(dataDir, 'default')?.sort()).toEqual([
      expect.stringMatching(/^lexical-/),
      expect.stringMatching(/^vectors-passages-/),
    ])

    const second = await startServer(config(dataDir), () => {})
    const indexes = await second.engram.indexes.get('default')
    expect(indexes.vectorOrigin.get('passages')).toBe('snapshot')
    expect(indexes.vectors.get('passages')!.size).toBe(30)
    expect(indexes.lexical.restored).toBe(true)
    expect(indexes.passages.size).toBe(30)
    await second.close()
  })

  it('gives the engine the index memory budget of INDEX_MEMORY_MB', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-start-'))
    dirs.push(dataDir)
    const limited = await startServer(config(dataDir, { INDEX_MEMORY_MB: '64' }), () => {})
    expect(limited.engram.indexes.stats().budgetBytes).toBe(64 * 2 ** 20)
    await limited.close()
    const unlimited = await startServer(config(dataDir), () => {})
    expect(unlimited.engram.indexes.stats().budgetBytes).toBeNull()
    await unlimited.close()
  })

  // procfs names each open file; elsewhere the adapter's own test covers the cap.
  it.skipIf(process.platform !== 'linux')(
    'gives the SQLite adapter the connection cap of SQLITE_MAX_OPEN_BRAINS',
    async () => {
      /** Brain database files of `dataDir` this process has open. */
      const openBrainFiles = (dataDir: string) =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            const path = readlinkSync(`/proc/self/fd/${fd}`)
            return path.startsWith(join(dataDir, 'brains')) && path.endsWith('.sqlite')
          } catch {
            return false // closed since the listing
          }
        }).length
      const touch = async (server: Awaited<ReturnType<typeof startServer>>) => {
        for (const id of ['alpha', 'beta', 'gamma']) {
          if ((await server.engram.brains.get(id)) === null) await server.engram.brains.create(id)
          await (await server.engram.store(id)).stats()
        }
      }
      const dataDir = mkdtempSync(join(tmpdir(), 'engram-start-'))
      dirs.push(dataDir)
      const capped = await startServer(config(dataDir, { SQLITE_MAX_OPEN_BRAINS: '1' }), () => {})
      await touch(capped)
      expect(openBrainFiles(dataDir)).toBe(1)
      await capped.close()
      // The default cap (256) keeps all three open (and the default brain's, opened at start).
      const uncapped = await startServer(config(dataDir), () => {})
      await touch(uncapped)
      expect(openBrainFiles(dataDir)).toBeGreaterThanOrEqual(3)
      await uncapped.close()
    },
  )

  it('removes a brain snapshot files with DELETE /system/brains/{id}', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-start-'))
    dirs.push(dataDir)
    const server = await startServer(config(dataDir), () => {})
    await server.engram.brains.create('alpha')
    await server.engram.commit('alpha', vectors())
    await server.engram.indexes.get('alpha')
    await server.engram.indexes.saveSnapshots('alpha')
    // The vector snapshot and the lexical one.
    expect(snapshotsOf(dataDir, 'alpha')).toHaveLength(2)
    const res = await server.app.inject({
      method: 'DELETE',
      url: '/system/brains/alpha',
      headers: { ServicePAT: TOKEN },
    })
    expect(res.statusCode).toBe(200)
    expect(snapshotsOf(dataDir, 'alpha')).toBeNull()
    await server.close()
  })
})
