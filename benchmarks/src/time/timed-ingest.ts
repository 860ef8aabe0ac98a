import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { createEngine, INGEST_TEXT, type Engram, type Extractor } from '@engram/core'
import type { IngestTaskSpec } from '../ingest/locomo-tasks.js'
import { cpuMsSince } from '../run/proc-cpu.js'

/** One ingestion run of `--time`: throughput and what the contradiction path did. */
export interface TimedIngestRun {
  /** `with`: the engine's default (contradicted facts ended); `without`: `contradictions: false`. */
  readonly contradictions: 'with' | 'without'
  readonly tasks: number
  readonly passages: number
  readonly relationships: number
  /** Relationships whose window was closed (`invalidAt` set: a fact's edge and its event's legs). */
  readonly ended: number
  /** `relationship_invalidated` changelog entries (one each time a fact's end is set or moved). */
  readonly invalidations: number
  /** From the first submit until the queue is idle. */
  readonly wallMs: number
  /** System time (ISO) of the first submit and of the idle queue: what `known_at` can ask between. */
  readonly startedAt: string
  readonly endedAt: string
  /** CPU time of every thread of the process over `wallMs`. */
  readonly cpuMs: number
  readonly failed: number
  /** 1-minute load average when the run started. */
  readonly load1: number
}

/** An engine left running after a timed run, for the searches that follow; `close` removes its files. */
export interface KeptEngine {
  readonly engram: Engram
  readonly brains: readonly string[]
  close(): Promise<void>
}

export interface TimedIngestOptions {
  readonly contradictions: boolean
  /** The server's extractor (the local extractor pool, shared by every run and started before them). */
  readonly extractor: Extractor
  readonly workers: number
  readonly workersPerBrain: number
  /** Keep the engine running and return it (the caller closes it). */
  readonly keep?: boolean
}

const PAGE = 1000

/**
 * Runs `specs` through the real ingestion pipeline as the server runs it (`createEngine` on SQLite in a
 * fresh temp dir, its extractor and tasks at once, no embedder), timed from the first submit to
 * `tasks.idle()`, with `contradictions` on or off. The ended facts are counted from the store and the
 * changelog afterwards, outside the timing, to show the contradiction path really ran.
 */
export async function timedIngest(
  specs: readonly IngestTaskSpec[],
  options: TimedIngestOptions,
): Promise<{ run: TimedIngestRun; kept: KeptEngine | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-time-'))
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir: dir }),
    version: 'bench',
    defaultBrain: null,
    workers: options.workers,
    workersPerBrain: options.workersPerBrain,
    maxPendingTasks: specs.length + 1,
    embedder: null,
    extractor: options.extractor,
    ...(options.contradictions ? {} : { contradictions: false }),
  })
  const close = async () => {
    await engram.stop({ graceMs: 0 })
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await engram.start()
    const brains = [...new Set(specs.map((s) => s.brainId))]
    for (const brainId of brains) await engram.brains.create(brainId)
    const load1 = loadavg()[0]!
    const cpu0 = process.cpuUsage()
    const startedAt = new Date().toISOString()
    const t0 = performance.now()
    for (const spec of specs)
      await engram.tasks.submit({ brainId: spec.brainId, kind: INGEST_TEXT, payload: spec.payload })
    await engram.tasks.idle()
    const wallMs = performance.now() - t0
    const endedAt = new Date().toISOString()
    const cpuMs = cpuMsSince(cpu0)

    let passages = 0
    let relationships = 0
    let ended = 0
    let invalidations = 0
    let failed = 0
    for (const brainId of brains) {
      const store = await engram.store(brainId)
      passages += (await store.stats()).passages
      for (let after: string | null = null; ;) {
        const page = await store.relationships.scan(after, PAGE)
        relationships += page.length
        ended += page.filter((r) => r.invalidAt !== null && r.invalidAt !== undefined).length
        if (page.length < PAGE) break
        after = page.at(-1)!.uuid
      }
      invalidations += await countInvalidations(engram, brainId)
      for (let skip = 0; ; skip += PAGE) {
        const page = await engram.tasks.list(brainId, { limit: PAGE, skip })
        failed += page.filter((t) => t.status !== 'completed').length
        if (page.length < PAGE) break
      }
    }
    const run: TimedIngestRun = {
      contradictions: options.contradictions ? 'with' : 'without',
      tasks: specs.length,
      passages,
      relationships,
      ended,
      invalidations,
      wallMs,
      startedAt,
      endedAt,
      cpuMs,
      failed,
      load1,
    }
    if (options.keep) return { run, kept: { engram, brains, close } }
    await close()
    return { run, kept: null }
  } catch (error) {
    await close()
    throw error
  }
}

/** `relationship_invalidated` entries in a brain's changelog (the total of a one-item page). */
async function countInvalidations(engram: Engram, brainId: string): Promise<number> {
  const store = await engram.store(brainId)
  const page = await store.changelog.list({
    types: ['relationship_invalidated'],
    limit: 1,
    skip: 0,
  })
  return page.total
}
