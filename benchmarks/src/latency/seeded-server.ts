import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { INGEST_TEXT } from '@engram/core'
import { loadConfig, startServer } from '@engram/server'
import { locomoTasks } from '../ingest/locomo-tasks.js'
import { docToPassage, COMMIT_BATCH } from '../systems/engine-brain.js'
import type { LatencyFixture } from './latency-fixture.js'
import { timeServedEngineSearch, type ServedEngineSearch } from './served-engine-search.js'

/** The system token of benchmark servers (SERVICEPAT_TOKEN); a throwaway server on loopback only. */
export const BENCH_TOKEN = 'bench-system-token-0123456789abcdef'

export interface SeededCorpus {
  readonly brain: string
  readonly passages: number
  readonly entities: number
  readonly relationships: number
  readonly seedMs: number
  /** The engine alone on this brain, for the search scenario's requests, timed before any load. */
  readonly engineSearch: ServedEngineSearch
}

export interface SeededServer {
  readonly url: string
  readonly corpus: SeededCorpus
  close(): Promise<void>
}

/**
 * A real server (`startServer(loadConfig(env))`, as `engram serve` runs it) on an ephemeral loopback port:
 * SQLite in a temp dir, EMBEDDER=none, a known system token. The default brain gets the SciFact corpus as
 * passages through `engram.commit` (fast), plus one LoCoMo conversation through ingestion tasks so the
 * entity list has entities; then one search builds the indexes before anything is timed, and the engine's
 * own time for the search scenario's requests is measured in the serving process (`engineSearch`).
 */
export async function startSeededServer(fixture: LatencyFixture): Promise<SeededServer> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-http-'))
  const config = loadConfig({
    STORAGE: 'sqlite',
    ENGRAM_DATA_DIR: dir,
    EMBEDDER: 'none',
    SERVICEPAT_TOKEN: BENCH_TOKEN,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SHUTDOWN_GRACE_SECONDS: '0',
  })
  const server = await startServer(config, () => {})
  const brain = config.defaultBrain ?? 'default'
  const t0 = performance.now()
  const now = new Date().toISOString()
  const docs = fixture.scifact.docs
  for (let i = 0; i < docs.length; i += COMMIT_BATCH) {
    const passages = docs.slice(i, i + COMMIT_BATCH).map((d, j) => docToPassage(d, i + j, now))
    await server.engram.commit(brain, { passages })
  }
  const locomo = fixture.locomo()
  for (const task of locomoTasks({ ...locomo, groups: [locomo.groups[0]!] }, 'session'))
    await server.engram.tasks.submit({ brainId: brain, kind: INGEST_TEXT, payload: task.payload })
  await server.engram.tasks.idle()
  const warm = await fetch(`${server.url}/retrieve/search?query=cell%20biology&k=10`, {
    headers: { servicepat: BENCH_TOKEN },
  })
  if (!warm.ok) throw new Error(`warm-up search answered ${warm.status}: ${await warm.text()}`)
  const seedMs = performance.now() - t0
  const engineSearch = await timeServedEngineSearch(server.engram, brain, fixture.scifact.queries)
  const stats = await (await server.engram.store(brain)).stats()
  return {
    url: server.url,
    corpus: {
      brain,
      passages: stats.passages,
      entities: stats.entities,
      relationships: stats.relationships,
      seedMs,
      engineSearch,
    },
    async close() {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
