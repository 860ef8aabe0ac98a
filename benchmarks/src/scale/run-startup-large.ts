import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { captureEnvironment } from '../run/environment.js'
import { runChild } from '../run/tsx-child.js'
import { builtBenchScript } from '../startup/built-child.js'
import type { StartupMode, StartupSeed, StartupTiming } from './measure-startup.js'
import { startupLargeReport } from './startup-large-report.js'

/** The child entry from the TypeScript sources, run by tsx (one comparison start). */
const MAIN = fileURLToPath(new URL('./scale-main.ts', import.meta.url))
const HOUR_MS = 3_600_000

/** Issue 4 point 8 and issue 29 point 3: how long a brain of 100,000 passages takes to be searchable. */
export const STARTUP_SIZE = 100_000

/**
 * Start-up of a large brain: 100,000 passages with SYNTHETIC 512-d vectors committed to SQLite, indexed
 * and every snapshot saved in one process; then opened in new processes, `runs` times each with all
 * snapshots and with the vector snapshot only (BM25 rebuilt, every start before issue 29), interleaved
 * run by run so that load drifts hit both alike, and once with no snapshot (minutes of HNSW inserts).
 * Each start is timed until its first search. Every process runs the built JavaScript under plain node,
 * as `npm start` does (`npm run build` first; a stale build is refused); one more `snapshot` start runs
 * tsx from the TypeScript sources, for comparison. Writes results/startup-large.md.
 */
export async function runStartupLarge(
  runs: number,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  const environment = captureEnvironment()
  const main = builtBenchScript('scale/scale-main.ts')
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-startup-'))
  try {
    log(
      `startup: committing ${STARTUP_SIZE} passages with vectors, building and saving the indexes ...`,
    )
    const seed = await runChild<StartupSeed>(
      main,
      ['startup-seed', dir, String(STARTUP_SIZE)],
      {},
      { timeoutMs: HOUR_MS, runtime: 'node' },
    )
    log(
      `startup: seeded (index build ${(seed.indexMs / 1000).toFixed(1)} s, snapshot save ` +
        `${(seed.save.ms / 1000).toFixed(2)} s)`,
    )
    const open = async (mode: StartupMode, runtime: 'node' | 'tsx' = 'node') => {
      const args = ['startup-open', dir, mode]
      const timing = await runChild<StartupTiming>(
        runtime === 'node' ? main : MAIN,
        args,
        {},
        {
          timeoutMs: HOUR_MS,
          runtime,
        },
      )
      log(
        `startup (${mode}, ${timing.runtime}): searchable ${(timing.sinceProcessStartMs / 1000).toFixed(2)} s ` +
          `after process start (indexes ${(timing.indexesMs / 1000).toFixed(2)} s, HNSW graph in after ` +
          `${(timing.graphReadyMs / 1000).toFixed(2)} s, CPU ${(timing.cpuMs / 1000).toFixed(2)} s, ` +
          `load ${timing.load1.toFixed(1)})`,
      )
      return timing
    }
    const starts: Record<StartupMode, StartupTiming[]> = {
      snapshot: [],
      'vectors-only': [],
      rebuild: [],
    }
    // A `vectors-only` start saves the lexical snapshot again at its stop: the next `snapshot` start
    // loads that one.
    for (let i = 0; i < runs; i++)
      for (const mode of ['snapshot', 'vectors-only'] as const) starts[mode].push(await open(mode))
    const tsx = await open('snapshot', 'tsx')
    starts.rebuild.push(await open('rebuild'))
    const command = `npm run bench -- --startup-large${runs === 3 ? '' : ` ${runs}`}`
    writeFileSync(
      join(resultsDir, 'startup-large.md'),
      startupLargeReport({ command, environment, seed, starts, tsx }),
    )
    log(`wrote ${join(resultsDir, 'startup-large.md')}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
