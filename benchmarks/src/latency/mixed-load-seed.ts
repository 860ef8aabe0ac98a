import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { loadConfig, startServer } from '@engram/server'
import { indexText } from '../loaders/dataset-types.js'
import { COMMIT_BATCH, docToPassage } from '../systems/engine-brain.js'
import type { BenchVectors } from '../vectors/bench-vectors.js'
import type { LatencyFixture } from './latency-fixture.js'

export type MixedEmbedder = 'none' | 'use-lite'

export interface MixedSeed {
  readonly dir: string
  readonly passages: number
  readonly seedMs: number
}

/**
 * A data directory with the SciFact corpus committed as passages to the default brain, as the latency
 * fixture seeds it (`engram.commit`, fast), by a server from the sources configured with `embedder`; with
 * use-lite each passage is committed with its vector from the benchmark's vector cache (the model embeds
 * what is missing first), as ingestion would have stored it. The server is closed cleanly, so the directory
 * holds its index snapshots as a restarted server finds them. The runs copy it and never write to it.
 */
export async function seedMixedDir(
  fixture: LatencyFixture,
  embedder: MixedEmbedder,
  vectors: BenchVectors | null,
  log: (line: string) => void,
): Promise<MixedSeed> {
  const docs = fixture.scifact.docs
  const texts = docs.map(indexText)
  if (embedder === 'use-lite') {
    if (!vectors) throw new Error('use-lite seeding needs the benchmark vectors')
    await vectors.prepare(texts, log)
  }
  const dir = mkdtempSync(join(tmpdir(), `engram-mixed-seed-${embedder}-`))
  const t0 = performance.now()
  const config = loadConfig({
    STORAGE: 'sqlite',
    ENGRAM_DATA_DIR: dir,
    EMBEDDER: embedder,
    SERVICEPAT_TOKEN: 'bench-mixed-seed-token-0123456789abcdef',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SHUTDOWN_GRACE_SECONDS: '0',
  })
  const server = await startServer(config, () => {})
  try {
    const brain = config.defaultBrain ?? 'default'
    const now = new Date().toISOString()
    for (let i = 0; i < docs.length; i += COMMIT_BATCH) {
      const slice = docs.slice(i, i + COMMIT_BATCH)
      const passages = slice.map((d, j) => docToPassage(d, i + j, now))
      const batch = vectors
        ? await vectors
            .embedder()
            .embed(texts.slice(i, i + COMMIT_BATCH), AbortSignal.timeout(600_000))
        : undefined
      await server.engram.commit(brain, {
        passages,
        ...(batch
          ? {
              vectors: passages.map((p, j) => ({ space: 'passages', id: p.id, vector: batch[j]! })),
            }
          : {}),
      })
    }
    const stats = await (await server.engram.store(brain)).stats()
    return { dir, passages: stats.passages, seedMs: performance.now() - t0 }
  } finally {
    await server.close()
  }
}
