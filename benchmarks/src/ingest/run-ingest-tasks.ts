import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import {
  createEngine,
  EVENT_LABEL,
  INGEST_TEXT,
  type Embedder,
  type Engram,
  type Extractor,
  type StorageAdapter,
} from '@engram/core'
import { countTokens, type IngestTaskSpec } from './locomo-tasks.js'
import { loopStallProbe } from './loop-stall-probe.js'
import { cpuMsSince, mainThreadCpuMs } from '../run/proc-cpu.js'

/** What one ingestion run produced and how long it took. */
export interface IngestRunResult {
  readonly tasks: number
  readonly turns: number
  /** Whitespace tokens of the ingested text (the chunker's unit). */
  readonly tokens: number
  /** From the first submit until the queue is idle (every task terminal). */
  readonly wallMs: number
  /** Time spent in `tasks.submit` (each stores the task durably before it is queued). */
  readonly submitMs: number
  /** CPU time of every thread of the process (main, worker threads, GC and compiler helpers) over `wallMs`. */
  readonly cpuMs?: number
  /** CPU time of the main thread (the event loop) over `wallMs`; null where it cannot be read. */
  readonly mainCpuMs?: number | null
  /** Longest stretch without an event-loop turn during the run, when probed. */
  readonly maxStallMs?: number | null
  readonly completed: number
  readonly failed: number
  readonly passages: number
  /** Entities that are not EVENT nodes. */
  readonly entities: number
  readonly events: number
  readonly relationships: number
  readonly observations: number
  /**
   * Passage citations on entities (EVENT nodes excluded: each belongs to one task): the sum of their `sourcePassageIds` lengths. Tasks of
   * one brain running at once must not change it (a lost update drops the other task's ids).
   */
  readonly citations: number
  /** Texts the pipeline handed to the embedder (passages and entities), from the tasks' counts. */
  readonly embedded: number
  /** 1-minute load average when the run started. */
  readonly load1: number
}

export interface IngestRunOptions {
  readonly embedder?: Embedder | null
  /**
   * Default: the built-in local extractor in this thread (what `defaultIngestionComponents` picks).
   * The server's default (`EXTRACTOR_WORKERS`) is `localExtractorPool({ workers: EXTRACTOR_WORKERS })`.
   */
  readonly extractor?: Extractor
  /** Tasks run at once (the engine's `workers`, default 2; the server's `WORKERS`). */
  readonly workers?: number
  /**
   * Tasks of one brain run at once (the server's `WORKERS_PER_BRAIN`); default `workers`, so a run over
   * one brain runs `workers` tasks at once.
   */
  readonly workersPerBrain?: number
  /** Record the longest event-loop stall (a 5 ms timer; costs a little CPU). */
  readonly probeLoop?: boolean
  /** The storage over the run's temp dir (default: the SQLite adapter, as the server's default). */
  readonly storage?: (dataDir: string) => StorageAdapter
}

/**
 * Runs ingestion tasks through the real pipeline in this process: `createEngine` on the SQLite adapter in a
 * fresh temp dir with the default ingestion components (256/32 chunks, the given extractor and, when given,
 * an embedder, whose entity vectors entity resolution then compares with, as in the server), every task submitted through `engram.tasks.submit`, then `tasks.idle()`. Record
 * counts come from the stores afterwards. The temp dir is removed at the end.
 */
export async function runIngestTasks(
  specs: readonly IngestTaskSpec[],
  options: IngestRunOptions = {},
): Promise<IngestRunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-ingest-'))
  let engram: Engram | null = null
  try {
    engram = createEngine({
      storage: options.storage?.(dir) ?? sqliteAdapter({ dataDir: dir }),
      version: 'bench',
      defaultBrain: null,
      ...(options.workers
        ? { workers: options.workers, workersPerBrain: options.workersPerBrain ?? options.workers }
        : {}),
      // Every task is submitted up front; the default cap (1,000 pending) would answer 503.
      maxPendingTasks: specs.length + 1,
      embedder: options.embedder ?? null,
      ...(options.extractor ? { extractor: options.extractor } : {}),
    })
    await engram.start()
    const brains = [...new Set(specs.map((s) => s.brainId))]
    for (const brainId of brains) await engram.brains.create(brainId)

    const load1 = loadavg()[0]!
    const probe = options.probeLoop ? loopStallProbe() : null
    const cpu0 = process.cpuUsage()
    const main0 = mainThreadCpuMs()
    const t0 = performance.now()
    for (const spec of specs)
      await engram.tasks.submit({ brainId: spec.brainId, kind: INGEST_TEXT, payload: spec.payload })
    const submitMs = performance.now() - t0
    await engram.tasks.idle()
    const wallMs = performance.now() - t0
    const cpuMs = cpuMsSince(cpu0)
    const main1 = mainThreadCpuMs()
    const maxStallMs = probe === null ? null : await probe.stop()

    const totals = {
      completed: 0,
      failed: 0,
      passages: 0,
      entities: 0,
      events: 0,
      relationships: 0,
      observations: 0,
      citations: 0,
      embedded: 0,
    }
    for (const brainId of brains) {
      const store = await engram.store(brainId)
      const stats = await store.stats()
      totals.passages += stats.passages
      totals.relationships += stats.relationships
      totals.observations += stats.observations
      for (let after: string | null = null; ;) {
        const page = await store.entities.scan(after, 1000)
        for (const entity of page) {
          if (entity.labels.includes(EVENT_LABEL)) totals.events++
          else {
            totals.entities++
            totals.citations += entity.sourcePassageIds.length
          }
        }
        if (page.length < 1000) break
        after = page.at(-1)!.uuid
      }
      for (let skip = 0; ; skip += 1000) {
        const page = await engram.tasks.list(brainId, { limit: 1000, skip })
        for (const task of page) {
          if (task.status === 'completed') totals.completed++
          else totals.failed++
          totals.embedded += task.counts.embedded ?? 0
        }
        if (page.length < 1000) break
      }
    }
    return {
      tasks: specs.length,
      turns: specs.reduce((n, s) => n + s.turns, 0),
      tokens: specs.reduce((n, s) => n + countTokens(s.payload.text ?? ''), 0),
      wallMs,
      submitMs,
      cpuMs,
      mainCpuMs: main0 === null || main1 === null ? null : main1 - main0,
      maxStallMs,
      load1,
      ...totals,
    }
  } finally {
    await engram?.stop({ graceMs: 0 })
    rmSync(dir, { recursive: true, force: true })
  }
}
