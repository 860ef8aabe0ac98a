import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as core from '@engram/core'
import type { Embedder, Extractor } from '@engram/core'
import { loadLocomo } from '../loaders/locomo.js'
import { captureEnvironment } from '../run/environment.js'
import { embedderThroughput, recordingEmbedder } from './embedder-throughput.js'
import { ingestReport, type IngestRun } from './ingest-report.js'
import { locomoTasks, type IngestTaskSpec } from './locomo-tasks.js'
import { runIngestTasks } from './run-ingest-tasks.js'

export const INGEST_COMMAND = 'npm run bench -- --ingest'

/** The extractor pool, when a version of @engram/core exports it (it is not in the public API yet). */
type PoolFactory = (options: { workers?: number }) => Extractor & { close(): Promise<void> }
const extractorPool = (core as unknown as { localExtractorPool?: PoolFactory }).localExtractorPool

/**
 * Issue 3's ingestion benchmark over the LoCoMo dev turns: the real pipeline in process (see
 * run-ingest-tasks.ts), one task per session and one per turn, without an embedder; then the same session
 * tasks with USE-lite, against the embedder's own batch throughput on exactly the texts the pipeline
 * embedded. Writes results/ingest.md.
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
  const measure = async (
    label: string,
    specs: readonly IngestTaskSpec[],
    options: Parameters<typeof runIngestTasks>[1] = {},
  ) => {
    log(`ingest ${label}: ${specs.length} tasks ...`)
    const result = await runIngestTasks(specs, options)
    const run = { label, result }
    log(
      `ingest ${label}: ${result.passages} passages in ${(result.wallMs / 1000).toFixed(1)} s = ` +
        `${((result.passages / result.wallMs) * 1000).toFixed(1)} passages/s, ` +
        `${((result.turns / result.wallMs) * 1000).toFixed(1)} turns/s; failed tasks ${result.failed}`,
    )
    runs.push(run)
    return run
  }

  await measure('one task per session', sessions)
  await measure('one task per turn', turns)
  await measure(
    'one task per turn, skip_enrichment (chunk + store + index only)',
    turns.map((t) => ({ ...t, payload: { ...t.payload, skipEnrichment: true } })),
  )
  let pool: string | null = null
  if (extractorPool) {
    const extractor = extractorPool({ workers: 2 })
    pool = 'measured'
    try {
      // Same pipeline with the extractor on worker threads (defaultIngestionComponents takes an extractor).
      await measure('one task per turn, local extractor on 2 worker threads', turns, {
        extractor,
      })
    } finally {
      await extractor.close()
    }
  }

  let embedding: Parameters<typeof ingestReport>[0]['embedding'] = null
  let embeddingMissing: string | null = null
  try {
    // One conversation: at USE-lite's speed on 2 shared cores the whole corpus takes many minutes twice over.
    const first = sessions[0]!.brainId
    embedding = await measureWithUseLite(
      sessions.filter((s) => s.brainId === first),
      measure,
      log,
    )
  } catch (error) {
    embeddingMissing = `use-lite embedder failed here: ${error instanceof Error ? error.message : String(error)}`
    log(`ingest with use-lite: ${embeddingMissing}`)
  }
  writeFileSync(
    join(resultsDir, 'ingest.md'),
    ingestReport({
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
      poolExported: pool !== null,
    }),
  )
  log(`wrote ${join(resultsDir, 'ingest.md')}`)
}

async function measureWithUseLite(
  sessions: readonly IngestTaskSpec[],
  measure: (
    label: string,
    specs: readonly IngestTaskSpec[],
    options?: Parameters<typeof runIngestTasks>[1],
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
      {
        embedder: recorder.embedder,
      },
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
