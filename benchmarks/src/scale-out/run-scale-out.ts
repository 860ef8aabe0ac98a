import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadBeir } from '../loaders/beir.js'
import { captureEnvironment } from '../run/environment.js'
import { benchDatabases, ensurePostgres, postgresVersion } from './bench-databases.js'
import { measureIngest, type IngestMeasurement, type IngestSetup } from './measure-ingest.js'
import { measureSearch } from './measure-search.js'
import { alternate } from './search-timing.js'
import { scaleOutReport } from './scale-out-report.js'
import { spawnEngramServer, type ServerProcess } from './server-process.js'

const HEADLINE = { embedder: 'none', docs: 300, warmUpDocs: 20 } as const

/**
 * The ingestion runs, in run order. The headline runs without an embedder: with use-lite, one worker
 * process ingested SciFact documents at 1.1 documents/s on this machine (60 documents, 2026-11-24; the
 * embedding of each abstract's ~40 entities dominates), so 300 documents in these setups would take
 * about half an hour. Its 1- and 2-worker pair runs twice, alternating, because other work on this
 * shared machine moves single runs by 20-30%. The same documents spread over 4 brains show what the
 * per-brain write lock leaves to parallelism; the default embedder gets a small run of its own.
 */
export const INGEST_SETUPS: readonly IngestSetup[] = [
  ...alternate(setups('postgres', [1, 2], { ...HEADLINE, brains: 1 }), 2),
  ...setups('postgres', [0], { ...HEADLINE, brains: 1 }),
  ...setups('sqlite', [0], { ...HEADLINE, brains: 1 }),
  ...setups('postgres', [1, 2], { ...HEADLINE, brains: 4 }),
  ...setups('postgres', [1, 2], { embedder: 'use-lite', docs: 30, warmUpDocs: 3, brains: 1 }),
]

function setups(
  storage: IngestSetup['storage'],
  workerProcesses: readonly number[],
  rest: Omit<IngestSetup, 'storage' | 'workerProcesses'>,
): IngestSetup[] {
  return workerProcesses.map((n) => ({ storage, workerProcesses: n, ...rest }))
}

const TASK_TIMEOUT_MS = 10 * 60_000

/** `title`, blank line, abstract: one SciFact document as one `POST /ingest/` text. */
export function documentText(doc: { title?: string; text: string }): string {
  return doc.title ? `${doc.title}\n\n${doc.text}` : doc.text
}

/**
 * Issue 13's check: ingestion throughput on PostgreSQL with 1 and 2 worker processes (and one process on
 * each storage for reference), then search latency and HTTP req/s on PostgreSQL and SQLite side by side;
 * every server a real `engram serve` process, every database fresh and dropped at the end, also on
 * failure or Ctrl-C. Writes results/scale-out.md.
 */
export async function runScaleOut(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  const t0 = performance.now()
  const environment = captureEnvironment()
  const scifact = loadBeir(join(dataDir, 'scifact'), 'scifact', 'test').groups[0]!
  const texts = scifact.docs.map(documentText)
  const queries = scifact.queries.map((q) => q.text)
  await ensurePostgres()
  const postgres = await postgresVersion()
  const databases = benchDatabases()
  const workDir = mkdtempSync(join(tmpdir(), 'engram-bench-scale-out-'))
  const running = new Set<ServerProcess>()
  const spawn = async (name: string, env: Record<string, string>) => {
    const server = await spawnEngramServer(name, env)
    running.add(server)
    return server
  }
  const cleanUp = async () => {
    for (const server of running) await server.stop(2000)
    running.clear()
    await databases.dropAll()
    rmSync(workDir, { recursive: true, force: true })
  }
  const interrupted = (signal: NodeJS.Signals) => {
    log(`scale-out: ${signal}, stopping servers and dropping databases`)
    void cleanUp().finally(() => process.exit(130))
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)
  try {
    const ingest: IngestMeasurement[] = []
    for (const setup of INGEST_SETUPS) {
      ingest.push(
        await measureIngest(setup, {
          spawn,
          createDatabase: databases.create,
          workDir,
          texts,
          timeoutMs: TASK_TIMEOUT_MS,
          log,
        }),
      )
      await databases.dropAll()
    }
    const search = await measureSearch({
      spawn,
      createDatabase: databases.create,
      workDir,
      texts,
      queries,
      timeoutMs: TASK_TIMEOUT_MS,
      log,
    })
    const file = join(resultsDir, 'scale-out.md')
    writeFileSync(
      file,
      scaleOutReport({
        environment,
        postgres,
        queries: queries.length,
        ingest,
        search,
        totalMinutes: (performance.now() - t0) / 60_000,
      }),
    )
    log(`wrote ${file} (${((performance.now() - t0) / 60_000).toFixed(1)} min)`)
  } finally {
    process.off('SIGINT', interrupted)
    process.off('SIGTERM', interrupted)
    await cleanUp()
  }
}
