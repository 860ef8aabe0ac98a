import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { runHttpScenario, searchScenario, type HttpResult } from '../latency/http-scenarios.js'
import { HTTP_CONNECTIONS, HTTP_SECONDS } from '../latency/run-http-scenarios.js'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'
import { commandCpuByPid, cpuDeltaMs, processCpuMs } from '../run/proc-cpu.js'
import {
  ingestThroughput,
  spreadOverBrains,
  submitTexts,
  waitForSubmitted,
  type IngestThroughput,
} from './http-ingest.js'
import type { Spawn } from './measure-ingest.js'
import { alternate, timedSearch, timeSearches } from './search-timing.js'
import { SCALE_OUT_TOKEN, type ServerProcess } from './server-process.js'

/** Restarts per storage for the first-search figure (alternating, like everything here). */
export const COLD_RESTARTS = 3
/** Single-client passes over every query, per storage. */
export const LATENCY_ROUNDS = 3
/** autocannon runs per storage (HTTP_SECONDS each, HTTP_CONNECTIONS connections). */
export const HTTP_ROUNDS = 2

export type Storage = 'sqlite' | 'postgres'

export interface SearchSide {
  readonly storage: Storage
  /** Seeding the corpus through `POST /ingest/` with `skip_enrichment` (chunk, store, index). */
  readonly seed: IngestThroughput
  /** Process start until /health answers, per restart (ms). */
  readonly restartMs: readonly number[]
  /** The first search after each restart: it loads the brain and builds its indexes (ms). */
  readonly firstSearchMs: readonly number[]
  /** The search right after it, for contrast (ms). */
  readonly secondSearchMs: readonly number[]
  /** One single-client pass over every query per round, in run order. */
  readonly rounds: readonly { readonly latency: LatencySummary; readonly load1: number }[]
  /** Every round's samples together. */
  readonly latency: LatencySummary
  readonly http: readonly {
    readonly result: HttpResult
    /** CPU of every `postgres` process per response during the run (ms); null for SQLite. */
    readonly postgresCpuMsPerRequest: number | null
  }[]
}

export interface SearchOptions {
  readonly spawn: Spawn
  readonly createDatabase: () => Promise<string>
  /** Where data directories go (the run removes it at the end, also when interrupted). */
  readonly workDir: string
  /** The corpus, one document per text, into the brain `default` of each server. */
  readonly texts: readonly string[]
  readonly queries: readonly string[]
  readonly timeoutMs: number
  readonly log: (line: string) => void
}

interface Side {
  readonly storage: Storage
  readonly env: Record<string, string>
  server: ServerProcess
  seed?: IngestThroughput
  readonly restartMs: number[]
  readonly firstSearchMs: number[]
  readonly secondSearchMs: number[]
  readonly samples: number[]
  readonly rounds: { latency: LatencySummary; load1: number }[]
  readonly http: SearchSide['http'][number][]
}

/**
 * One SQLite and one PostgreSQL server (`ROLE=all`, `EMBEDDER=none`: search is BM25 only, as in the
 * latency suite) get the same corpus through `POST /ingest/`; then, alternating between the two
 * throughout: restarts with the first search after each (`WARM_INDEXES=false`, so that search loads the
 * brain), an untimed pass over the queries, single-client latency rounds, and autocannon req/s rounds.
 */
export async function measureSearch(options: SearchOptions): Promise<SearchSide[]> {
  const dirs: string[] = []
  const sides: Side[] = []
  try {
    for (const storage of ['sqlite', 'postgres'] as const) {
      const dataDir = mkdtempSync(join(options.workDir, `search-${storage}-`))
      dirs.push(dataDir)
      const env: Record<string, string> = {
        ROLE: 'all',
        EMBEDDER: 'none',
        WARM_INDEXES: 'false',
        ENGRAM_DATA_DIR: dataDir,
        ...(storage === 'postgres'
          ? { STORAGE: 'postgres', DATABASE_URL: await options.createDatabase() }
          : { STORAGE: 'sqlite' }),
      }
      const server = await options.spawn(`${storage} search`, env)
      const side: Side = {
        storage,
        env,
        server,
        restartMs: [],
        firstSearchMs: [],
        secondSearchMs: [],
        samples: [],
        rounds: [],
        http: [],
      }
      sides.push(side)
      options.log(`scale-out search ${storage}: seeding ${options.texts.length} documents ...`)
      const docs = spreadOverBrains(options.texts, ['default'])
      const submitted = await submitTexts(server.url, SCALE_OUT_TOKEN, docs, 'seed-', true)
      const tasks = await waitForSubmitted(
        server.url,
        SCALE_OUT_TOKEN,
        docs,
        submitted,
        options.timeoutMs,
      )
      side.seed = ingestThroughput(tasks, submitted.startedAt)
      if (side.seed.failed > 0)
        throw new Error(
          `seeding ${storage}: ${side.seed.failed} tasks failed (${side.seed.firstError})`,
        )
      options.log(
        `scale-out search ${storage}: ${side.seed.passages} passages in ${(side.seed.wallMs / 1000).toFixed(1)} s`,
      )
    }

    for (const side of alternate(sides, COLD_RESTARTS)) {
      await side.server.stop()
      const t0 = performance.now()
      side.server = await options.spawn(`${side.storage} search`, side.env)
      side.restartMs.push(performance.now() - t0)
      const query = options.queries[side.firstSearchMs.length]!
      side.firstSearchMs.push(await timedSearch(side.server.url, SCALE_OUT_TOKEN, query))
      side.secondSearchMs.push(await timedSearch(side.server.url, SCALE_OUT_TOKEN, query))
      options.log(
        `scale-out search ${side.storage}: restart ${side.restartMs.at(-1)!.toFixed(0)} ms, first search ` +
          `${side.firstSearchMs.at(-1)!.toFixed(1)} ms, second ${side.secondSearchMs.at(-1)!.toFixed(1)} ms`,
      )
    }

    // JIT, connection setup and caches are not part of the figures (as the latency suite's untimed run).
    for (const side of sides) await timeSearches(side.server.url, SCALE_OUT_TOKEN, options.queries)
    for (const side of alternate(sides, LATENCY_ROUNDS)) {
      const load1 = loadavg()[0]!
      const samples = await timeSearches(side.server.url, SCALE_OUT_TOKEN, options.queries)
      side.samples.push(...samples)
      const latency = summarizeLatency(samples)
      side.rounds.push({ latency, load1 })
      options.log(
        `scale-out search ${side.storage}: one client, p50 ${latency.p50.toFixed(2)} ms, p95 ` +
          `${latency.p95.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms; load ${load1.toFixed(2)}`,
      )
    }

    const scenario = searchScenario(options.queries)
    for (const side of sides)
      await runHttpScenario(side.server.url, SCALE_OUT_TOKEN, scenario, 2, HTTP_CONNECTIONS)
    for (const side of alternate(sides, HTTP_ROUNDS)) {
      const postgresBefore = commandCpuByPid('postgres')
      const result = await runHttpScenario(
        side.server.url,
        SCALE_OUT_TOKEN,
        scenario,
        HTTP_SECONDS,
        HTTP_CONNECTIONS,
        () => processCpuMs(side.server.pid),
      )
      const postgresMs = cpuDeltaMs(postgresBefore, commandCpuByPid('postgres'))
      const postgresCpuMsPerRequest =
        side.storage === 'postgres' && result.requests > 0 ? postgresMs / result.requests : null
      side.http.push({ result, postgresCpuMsPerRequest })
      options.log(
        `scale-out search ${side.storage}: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.p50} ms, ` +
          `p99 ${result.p99} ms, statuses ${JSON.stringify(result.statuses)}, errors ${result.errors}; load ${result.load1.toFixed(2)}`,
      )
    }
    return sides.map((s) => ({
      storage: s.storage,
      seed: s.seed!,
      restartMs: s.restartMs,
      firstSearchMs: s.firstSearchMs,
      secondSearchMs: s.secondSearchMs,
      rounds: s.rounds,
      latency: summarizeLatency(s.samples),
      http: s.http,
    }))
  } finally {
    for (const side of sides) await side.server.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}
