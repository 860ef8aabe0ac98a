import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { createEngine } from '@engram/core'
import { cacheDir } from '../paths.js'
import { vectorCacheDir } from '../vectors/bench-vectors.js'
import { DiskVectorCache } from '../vectors/disk-vector-cache.js'
import { brainBatch, loadScifact, manyBrainId, type ManyBrainsShape } from './many-brains-corpus.js'

export interface ManyBrainsSeed {
  readonly ms: number
  readonly dataBytes: number
}

/** Bytes under `path` (a file, or a folder walked recursively). */
export function sizeOf(path: string): number {
  if (!existsSync(path)) return 0
  if (!statSync(path).isDirectory()) return statSync(path).size
  let bytes = 0
  for (const entry of readdirSync(path)) bytes += sizeOf(join(path, entry))
  return bytes
}

/**
 * Writes the brains: for each, `engram.brains.create` and one `engram.commit` of its passages with
 * their vectors (use-lite's, read from the cache the parent filled: each distinct SciFact text was
 * embedded once, and brains sharing a document share its vector), straight through the commit path
 * instead of ingestion tasks (no chunking, no extraction, no entities). No index is built here.
 */
export async function seedManyBrains(
  dataDir: string,
  datasetsDir: string,
  shape: ManyBrainsShape,
  embedder: { name: string; dimension: number },
  log: (line: string) => void,
): Promise<ManyBrainsSeed> {
  const { docs } = loadScifact(datasetsDir)
  const cache = DiskVectorCache.open(vectorCacheDir(cacheDir), embedder.name, embedder.dimension)
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir }),
    version: 'bench',
    defaultBrain: null,
  })
  await engram.start()
  const t0 = performance.now()
  for (let i = 0; i < shape.brains; i++) {
    const id = manyBrainId(i)
    await engram.brains.create(id)
    await engram.commit(id, brainBatch(docs, i, shape.passages, cache))
    // Thousands of open connections would hold their page caches: let this one go.
    ;(await engram.store(id)).release?.()
    if ((i + 1) % 250 === 0) log(`  seeded ${i + 1} brains`)
  }
  const ms = performance.now() - t0
  await engram.stop({ graceMs: 0 })
  return { ms, dataBytes: sizeOf(dataDir) }
}
