import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { commandCpuByPid, cpuDeltaMs, processCpuMs } from '../run/proc-cpu.js'
import {
  ingestThroughput,
  spreadOverBrains,
  submitTexts,
  waitForSubmitted,
  type IngestThroughput,
} from './http-ingest.js'
import { SCALE_OUT_TOKEN, type ServerProcess } from './server-process.js'

/** One way of running the same ingestion: one `ROLE=all` process, or an API process and N workers. */
export interface IngestSetup {
  readonly storage: 'sqlite' | 'postgres'
  /** 0: one `ROLE=all` process; N: one `ROLE=api` process and N `ROLE=worker` processes. */
  readonly workerProcesses: number
  /** `EMBEDDER` of every process. */
  readonly embedder: string
  /** Documents timed: the first ones of the texts, one task each. */
  readonly docs: number
  /**
   * Brains the documents are spread over (document i into brain i mod n): 1 is the brain `default`;
   * more are created first (`scifact-1`, ...). Tasks of one brain write one at a time.
   */
  readonly brains: number
  /** The next documents, into a brain of their own first (untimed): models loaded, code JIT-compiled. */
  readonly warmUpDocs: number
}

export interface IngestMeasurement extends IngestThroughput {
  readonly setup: IngestSetup
  readonly submitMs: number
  readonly retried: number
  /**
   * CPU seconds over the timed window (first POST until every task was seen terminal), from /proc:
   * the process serving HTTP, the worker processes together, and every `postgres` process on the machine.
   */
  readonly cpuSeconds: {
    readonly http: number | null
    readonly workers: number | null
    readonly postgres: number | null
  }
  /** 1-minute load average when the timed run started. */
  readonly load1: number
}

/** Starts a server process and keeps track of it (the run stops whatever is left on failure). */
export type Spawn = (name: string, env: Record<string, string>) => Promise<ServerProcess>

export interface IngestOptions {
  readonly spawn: Spawn
  /** A fresh PostgreSQL database URL per call. */
  readonly createDatabase: () => Promise<string>
  /** Where data directories go (the run removes it at the end, also when interrupted). */
  readonly workDir: string
  /** The documents, in order: the setup takes its timed and warm-up ones from the start. */
  readonly texts: readonly string[]
  readonly timeoutMs: number
  readonly log: (line: string) => void
}

export function setupLabel(setup: IngestSetup): string {
  return setup.workerProcesses === 0
    ? `${setup.storage}, one ROLE=all process`
    : `${setup.storage}, ROLE=api + ${setup.workerProcesses} ROLE=worker`
}

const cpuSecondsBetween = (before: (number | null)[], after: (number | null)[]) =>
  before.some((x) => x === null) || after.some((x) => x === null)
    ? null
    : (after.reduce<number>((s, x) => s + x!, 0) - before.reduce<number>((s, x) => s + x!, 0)) /
      1000

/**
 * Ingestion through real server processes on fresh storage: start them (the API or ROLE=all process,
 * then the workers, each ready before the next), ingest the warm-up texts into the brain `warmup` and
 * wait for them, then submit the timed texts through the HTTP process as fast as it accepts them and
 * poll until every task is terminal. Every process is stopped before it returns.
 */
export async function measureIngest(
  setup: IngestSetup,
  options: IngestOptions,
): Promise<IngestMeasurement> {
  const dataDir = mkdtempSync(join(options.workDir, 'ingest-'))
  const processes: ServerProcess[] = []
  try {
    const env: Record<string, string> = {
      EMBEDDER: setup.embedder,
      ENGRAM_DATA_DIR: dataDir,
      ...(setup.storage === 'postgres'
        ? { STORAGE: 'postgres', DATABASE_URL: await options.createDatabase() }
        : { STORAGE: 'sqlite' }),
    }
    const split = setup.workerProcesses > 0
    const http = await options.spawn(split ? 'api' : 'all', {
      ...env,
      ROLE: split ? 'api' : 'all',
    })
    processes.push(http)
    const workers: ServerProcess[] = []
    for (let i = 1; i <= setup.workerProcesses; i++) {
      const worker = await options.spawn(`worker ${i}`, { ...env, ROLE: 'worker' })
      workers.push(worker)
      processes.push(worker)
    }
    const label = `${setupLabel(setup)}, EMBEDDER=${setup.embedder}, ${setup.brains} brain(s)`
    const brains =
      setup.brains === 1
        ? ['default']
        : Array.from({ length: setup.brains }, (_, i) => `scifact-${i + 1}`)
    const docs = spreadOverBrains(options.texts.slice(0, setup.docs), brains)
    const warmUp = spreadOverBrains(
      options.texts.slice(setup.docs, setup.docs + setup.warmUpDocs),
      ['warmup'],
    )
    options.log(`scale-out ingest ${label}: warm-up, ${warmUp.length} documents ...`)
    for (const brain of ['warmup', ...brains.filter((b) => b !== 'default')])
      await createBrain(http.url, brain)
    const warm = await submitTexts(http.url, SCALE_OUT_TOKEN, warmUp, 'warmup-')
    await waitForSubmitted(http.url, SCALE_OUT_TOKEN, warmUp, warm, options.timeoutMs)

    options.log(`scale-out ingest ${label}: ${docs.length} documents ...`)
    const load1 = loadavg()[0]!
    const serverCpu = () => [processCpuMs(http.pid), ...workers.map((w) => processCpuMs(w.pid))]
    const before = serverCpu()
    const postgresBefore = commandCpuByPid('postgres')
    const submitted = await submitTexts(http.url, SCALE_OUT_TOKEN, docs, 'doc-')
    const tasks = await waitForSubmitted(
      http.url,
      SCALE_OUT_TOKEN,
      docs,
      submitted,
      options.timeoutMs,
    )
    const after = serverCpu()
    const postgresCpu = cpuDeltaMs(postgresBefore, commandCpuByPid('postgres'))
    const n = workers.length
    const result: IngestMeasurement = {
      ...ingestThroughput(tasks, submitted.startedAt),
      setup,
      submitMs: submitted.submitMs,
      retried: submitted.retried,
      cpuSeconds: {
        http: cpuSecondsBetween(before.slice(0, 1), after.slice(0, 1)),
        workers: n === 0 ? null : cpuSecondsBetween(before.slice(1, 1 + n), after.slice(1, 1 + n)),
        postgres: setup.storage === 'postgres' ? postgresCpu / 1000 : null,
      },
      load1,
    }
    options.log(
      `scale-out ingest ${label}: ${result.completed} completed, ${result.failed} failed; ` +
        `${result.passages} passages in ${(result.wallMs / 1000).toFixed(1)} s = ` +
        `${result.docsPerSec.toFixed(1)} docs/s, ${result.passagesPerSec.toFixed(1)} passages/s; load ${load1.toFixed(2)}`,
    )
    return result
  } finally {
    for (const p of processes.reverse()) await p.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** `POST /system/brains` (CONTRACT.md section 9). */
async function createBrain(url: string, brain: string): Promise<void> {
  const response = await fetch(`${url}/system/brains`, {
    method: 'POST',
    headers: { servicepat: SCALE_OUT_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ brain_id: brain }),
  })
  if (response.status !== 201)
    throw new Error(`POST /system/brains answered ${response.status}: ${await response.text()}`)
}
