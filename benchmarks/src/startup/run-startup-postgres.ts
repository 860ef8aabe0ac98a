import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { captureEnvironment } from '../run/environment.js'
import { runChild } from '../run/tsx-child.js'
import { STARTUP_SIZE } from '../scale/run-startup-large.js'
import { benchDatabases, ensurePostgres, postgresVersion } from '../scale-out/bench-databases.js'
import { builtBenchScript } from './built-child.js'
import { startupPostgresReport } from './startup-postgres-report.js'
import {
  TAIL_COMMIT_PASSAGES,
  type PostgresSeed,
  type PostgresStart,
  type PostgresStartMode,
  type PostgresTailWrites,
  type StartupPostgresResult,
} from './startup-postgres-result.js'

export const STARTUP_POSTGRES_COMMAND = 'npm run bench -- --startup-postgres'
/** Writes of another process after the save that a `tail` start applies: one feed entry each. */
export const TAIL_COMMITS = 1000
const HOUR_MS = 3_600_000

/**
 * `npm run bench -- --startup-postgres [runs]`: `--startup-large` for a PostgreSQL brain with
 * `INDEX_SNAPSHOT_DIR` (issue 29 item 3). In a fresh database (dropped at the end), one process
 * commits the first 95,000 of `--startup-large`'s 100,000 passages with their SYNTHETIC vectors,
 * builds every index and saves the snapshots; another process (no snapshot directory) commits the
 * last 5,000 as 1,000 writes of 5 passages. A copy of the snapshot directory is brought to the feed's
 * head by one untimed start that applies those writes and saves. Then, in new processes running the
 * built JavaScript (`npm run build` first), interleaved `runs` times: a start from the snapshots at
 * the head (`snapshot`), and one from a fresh copy of the first snapshots, which applies the 1,000
 * writes before serving (`tail`); then once without a snapshot directory (`rebuild`, minutes of HNSW
 * inserts). Every start ends with the same 100,000-passage brain and is timed to its first search.
 * Writes results/startup-postgres.md and results/data/startup-postgres.json.
 */
export async function runStartupPostgres(
  runs: number,
  resultsDir: string,
  log: (line: string) => void,
): Promise<StartupPostgresResult> {
  const environment = captureEnvironment()
  const main = builtBenchScript('startup/postgres-startup-main.ts')
  await ensurePostgres()
  const postgres = await postgresVersion()
  const databases = benchDatabases()
  const url = await databases.create()
  const root = mkdtempSync(join(tmpdir(), 'engram-bench-startup-pg-'))
  const total = STARTUP_SIZE
  const seeded = total - TAIL_COMMITS * TAIL_COMMIT_PASSAGES
  const child = <T>(args: string[]) =>
    runChild<T>(main, args, {}, { timeoutMs: HOUR_MS, runtime: 'node' })
  try {
    const first = join(root, 'first')
    const head = join(root, 'head')
    log(`startup-postgres: committing ${seeded} passages with vectors, building, saving ...`)
    const seed = await child<PostgresSeed>(['seed', url, first, String(seeded), String(total)])
    log(
      `startup-postgres: seeded (commit ${(seed.commitMs / 1000).toFixed(1)} s, index build ` +
        `${(seed.indexMs / 1000).toFixed(1)} s, save ${(seed.save.ms / 1000).toFixed(2)} s)`,
    )
    const tailWrites = await child<PostgresTailWrites>(['tail', url, String(seeded), String(total)])
    log(`startup-postgres: ${tailWrites.commits} writes of another process in ${tailWrites.ms} ms`)
    cpSync(first, head, { recursive: true })
    const settle = await child<PostgresStart & { saveMs: number }>([
      'open',
      url,
      head,
      'tail',
      'save',
    ])
    log(`startup-postgres: snapshots brought to the feed's head (saved in ${settle.saveMs} ms)`)
    const open = async (mode: PostgresStartMode, dir: string) => {
      const { saveMs: _, ...timing } = await child<PostgresStart & { saveMs: number }>([
        'open',
        url,
        dir,
        mode,
      ])
      log(
        `startup-postgres (${mode}): searchable ${(timing.sinceProcessStartMs / 1000).toFixed(2)} s ` +
          `after process start (indexes ${(timing.indexesMs / 1000).toFixed(2)} s, ` +
          `${timing.feedReplayed} feed entries applied, load ${timing.load1.toFixed(1)})`,
      )
      return timing
    }
    const starts: Record<PostgresStartMode, PostgresStart[]> = {
      snapshot: [],
      tail: [],
      rebuild: [],
    }
    for (let i = 0; i < runs; i++) {
      starts.snapshot.push(await open('snapshot', head))
      // A fresh copy each time: the start saves nothing there, but one that did would leave no tail.
      const copy = join(root, `tail-${i}`)
      cpSync(first, copy, { recursive: true })
      starts.tail.push(await open('tail', copy))
      rmSync(copy, { recursive: true, force: true })
    }
    starts.rebuild.push(await open('rebuild', 'none'))
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    const size = await client
      .query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes')
      .finally(() => client.end())
    const result: StartupPostgresResult = {
      command: `${STARTUP_POSTGRES_COMMAND}${runs === 3 ? '' : ` ${runs}`}`,
      environment,
      postgres,
      databaseBytes: Number(size.rows[0]!.bytes),
      seed,
      tailWrites,
      settle,
      starts,
      loadAfter: loadavg(),
    }
    mkdirSync(join(resultsDir, 'data'), { recursive: true })
    const data = join(resultsDir, 'data', 'startup-postgres.json')
    writeFileSync(data, `${JSON.stringify(result, null, 2)}\n`)
    const file = join(resultsDir, 'startup-postgres.md')
    writeFileSync(file, startupPostgresReport(result))
    log(`wrote ${file} and ${data}`)
    return result
  } finally {
    rmSync(root, { recursive: true, force: true })
    await databases.dropAll()
  }
}
