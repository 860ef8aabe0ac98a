import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as core from '@engram/core'
import { loadConfig } from '@engram/server'
import type { Embedder } from '@engram/core'
import { loadLocomo } from '../loaders/locomo.js'
import { captureEnvironment } from '../run/environment.js'
import { embedderThroughput, recordingEmbedder } from './embedder-throughput.js'
import { ingestReport, type IngestRun } from './ingest-report.js'
import { scifactText } from './large-text.js'
import { locomoTasks, type IngestTaskSpec } from './locomo-tasks.js'
import { runIngestTasks, type IngestRunOptions } from './run-ingest-tasks.js'
import { sideBySideSectionOf, withSideBySideSection } from './use-lite-side-by-side-report.js'

export const INGEST_COMMAND = 'npm run bench -- --ingest'

/** Issue 3's "a 5 MB text file ingests": 5 MiB of characters (the text is ASCII but for a few symbols). */
export const LARGE_TEXT_CHARS = 5 * 1024 * 1024

/** The server's defaults, as `npm start` with no environment has them. */
const SERVER_DEFAULTS = loadConfig({})
const SERVER_EXTRACTOR_WORKERS = SERVER_DEFAULTS.extractorWorkers
const SERVER_WORKERS = SERVER_DEFAULTS.workers
/** The variant's task count: the previous default. */
const FEWER_WORKERS = 2

/** Task counts at once (`WORKERS`) of the "tasks at once" runs, over one conversation's turns. */
const TASKS_AT_ONCE = [1, 2, 4, 8]

/**
 * Issue 3's ingestion benchmark over the LoCoMo dev turns: the real pipeline in process (see
 * run-ingest-tasks.ts) configured as `npm start` configures the server (`loadConfig({})`: the local
 * extractor on its worker threads, its tasks at once, SQLite), without an embedder: one task per turn (the headline), one per
 * session, then variants (2 tasks at once, the extractor on the main thread, no enrichment); one
 * conversation's turns at 1, 2, 4 and 8 tasks at once (records and citations must not change); one 5 MiB
 * plain text; then the session tasks with USE-lite against the embedder's own batch throughput on
 * exactly the texts the pipeline embedded. Writes results/ingest.md.
 */
export async function runIngestBench(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  const environment = captureEnvironment()
  const dataset = loadLocomo(join(dataDir, 'locomo-dev'), 'locomo-dev')
  const sessions = locomoTasks(dataset, 'session')
  const turns = locomoTasks(dataset, 'turn')
  const runs: IngestRun[] = []
  const tasksAtOnce: { workers: number; run: IngestRun }[] = []
  const measure = async (
    label: string,
    specs: readonly IngestTaskSpec[],
    options: IngestRunOptions = {},
    into: IngestRun[] = runs,
  ) => {
    log(`ingest ${label}: ${specs.length} tasks ...`)
    const result = await runIngestTasks(specs, options)
    const run = { label, result }
    const cpu =
      result.cpuMs === undefined
        ? ''
        : `, CPU ${(result.cpuMs / result.passages).toFixed(2)} ms/passage (main thread ${
            result.mainCpuMs == null ? '-' : (result.mainCpuMs / result.passages).toFixed(2)
          })`
    log(
      `ingest ${label}: ${result.passages} passages in ${(result.wallMs / 1000).toFixed(1)} s = ` +
        `${((result.passages / result.wallMs) * 1000).toFixed(1)} passages/s${cpu}; ` +
        `failed tasks ${result.failed}; citations ${result.citations}; load ${result.load1.toFixed(2)}`,
    )
    into.push(run)
    return run
  }

  // One pool for every run, as the server keeps one for its lifetime; started before any timing, as the
  // use-lite model load below is (the server could do the same at start).
  const pool = core.localExtractorPool({ workers: SERVER_EXTRACTOR_WORKERS })
  let warmUpMs: number[] = []
  try {
    warmUpMs = await pool.warmUp()
    // One brain: it runs WORKERS_PER_BRAIN tasks at once (WORKERS keeps one more for other brains).
    const server = {
      extractor: pool,
      workers: SERVER_WORKERS,
      workersPerBrain: SERVER_DEFAULTS.workersPerBrain,
    }
    // A long-running server has its code JIT-compiled, in the extraction workers too: the first few hundred
    // tasks of a fresh process cost about half as much CPU again (3.9 against 2.4 ms per passage), and after
    // 300 warm-up tasks the next full pass still ran 10-15% slower than the passes after it (498 against
    // 550-594 passages/s, 2026-11-24). So a full pass runs first, unreported.
    log(`ingest warm-up: ${turns.length} turn tasks (not reported) ...`)
    await runIngestTasks(turns, server)
    await measure('one task per turn', turns, server)
    await measure('one task per session', sessions, server)
    await measure(
      `one task per turn, ${FEWER_WORKERS} tasks at once (WORKERS=${FEWER_WORKERS})`,
      turns,
      {
        ...server,
        workers: FEWER_WORKERS,
      },
    )
    const inThread = core.localExtractor()
    // The same JIT warm-up for the extractor on this thread (the pool's workers had theirs).
    await inThread.extract(
      {
        passages: turns.slice(0, 50).map((t, i) => ({ id: `w${i}`, text: t.payload.text ?? '' })),
        sourceTimestamp: new Date(0).toISOString(),
        observateFor: [],
      },
      { signal: AbortSignal.timeout(60_000) },
    )
    await measure('one task per turn, extractor on the main thread (EXTRACTOR_WORKERS=0)', turns, {
      ...server,
      extractor: inThread,
    })
    await measure(
      'one task per turn, skip_enrichment (chunk + store + index only)',
      turns.map((t) => ({ ...t, payload: { ...t.payload, skipEnrichment: true } })),
      server,
    )
    // One brain, so every task at once competes for the same entities (the case a lost update hits).
    const conversation = turns.filter((t) => t.brainId === turns[0]!.brainId)
    for (const workers of TASKS_AT_ONCE) {
      const run = await measure(
        conversation[0]!.brainId,
        conversation,
        { ...server, workers, workersPerBrain: workers },
        [],
      )
      tasksAtOnce.push({ workers, run })
    }
    const text = scifactText(dataDir, LARGE_TEXT_CHARS)
    await measure(
      'one 5 MiB plain text (SciFact abstracts), one task',
      [
        {
          brainId: 'scifact-text',
          turns: 0,
          payload: {
            text,
            json: null,
            metaKeys: { filename: 'scifact.txt' },
            observateFor: [],
            sourceTimestamp: new Date(0).toISOString(),
            skipEnrichment: false,
          },
        },
      ],
      { ...server, probeLoop: true },
    )

    let embedding: Parameters<typeof ingestReport>[0]['embedding'] = null
    let embeddingMissing: string | null = null
    try {
      // One conversation: at USE-lite's speed on 2 shared cores the whole corpus takes many minutes twice over.
      const first = sessions[0]!.brainId
      embedding = await measureWithUseLite(
        sessions.filter((s) => s.brainId === first),
        server,
        measure,
        log,
      )
    } catch (error) {
      embeddingMissing = `use-lite embedder failed here: ${error instanceof Error ? error.message : String(error)}`
      log(`ingest with use-lite: ${embeddingMissing}`)
    }
    // The side-by-side section (use-lite-side-by-side.sh) is written by its own command: keep it.
    const reportPath = join(resultsDir, 'ingest.md')
    const sideBySide = existsSync(reportPath)
      ? sideBySideSectionOf(readFileSync(reportPath, 'utf8'))
      : ''
    const report = ingestReport({
      command: INGEST_COMMAND,
      environment,
      corpus: {
        conversations: dataset.groups.length,
        sessions: sessions.length,
        turns: turns.length,
      },
      runs,
      embedding,
      embeddingMissing,
      tasksAtOnce,
      server: {
        workers: SERVER_DEFAULTS.workersPerBrain,
        extractorWorkers: SERVER_EXTRACTOR_WORKERS,
      },
      extractorWarmUpMs: warmUpMs,
      warmUpTasks: turns.length,
    })
    writeFileSync(reportPath, sideBySide ? withSideBySideSection(report, sideBySide) : report)
    log(`wrote ${reportPath}`)
  } finally {
    await pool.close()
  }
}

async function measureWithUseLite(
  sessions: readonly IngestTaskSpec[],
  server: IngestRunOptions,
  measure: (
    label: string,
    specs: readonly IngestTaskSpec[],
    options?: IngestRunOptions,
  ) => Promise<IngestRun>,
  log: (line: string) => void,
) {
  // Vector cache off in both runs, so neither gets repeated texts for free.
  const inPipeline = core.useLiteEmbedder({ cacheSize: 0 })
  const loadMs = await inPipeline.warmUp()
  const recorder = recordingEmbedder<Embedder>(inPipeline)
  let run: IngestRun
  try {
    run = await measure(
      `one task per session, ${sessions[0]!.brainId} only, with use-lite embedding`,
      sessions,
      { ...server, embedder: recorder.embedder },
    )
  } finally {
    await inPipeline.close()
  }
  const alone = core.useLiteEmbedder({ cacheSize: 0 })
  try {
    await alone.warmUp()
    const own = await embedderThroughput(alone, recorder.texts)
    log(
      `use-lite alone: ${own.texts} texts in ${(own.ms / 1000).toFixed(1)} s = ${own.perSecond.toFixed(1)} texts/s`,
    )
    return { run, own, loadMs, workers: loadMs.length }
  } finally {
    await alone.close()
  }
}
