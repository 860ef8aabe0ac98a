import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PEERS } from '../peers/peer-registry.js'
import { captureEnvironment } from '../run/environment.js'
import { runChild } from '../run/tsx-child.js'
import type { StartupMode, StartupResult, StartupSeed, StartupTiming } from './measure-startup.js'
import type { ScalePoint } from './scale-point.js'
import { scaleReport } from './scale-report.js'
import { ENGRAM_SCALE_SYSTEMS, HYBRID_DEFAULT_MAX } from './scale-systems.js'

const MAIN = fileURLToPath(new URL('./scale-main.ts', import.meta.url))

/** Issue 4, point 8: how long a brain of 100,000 passages takes to become searchable. */
export const STARTUP_SIZE = 100_000
/** Starts with the snapshot (odd, for a median); the start without it takes minutes and runs once. */
const SNAPSHOT_STARTS = 3

/**
 * Scale curve over SYNTHETIC passages: each (system, size) point runs in a fresh child process (clean memory
 * figures), for the Engram systems (all, or those named in `only`) and the peers named in `only`. Then
 * start-up: a brain of 100,000 passages with SYNTHETIC 512-d vectors committed to SQLite, indexed and its
 * vector snapshot saved in one process, then opened in two more, with the snapshot and without (rebuild),
 * each timed until its first search. Writes results/scale-curve.md.
 */
export async function runScaleCurve(
  sizes: readonly number[],
  resultsDir: string,
  log: (line: string) => void,
  only: readonly string[] = [],
): Promise<void> {
  const environment = captureEnvironment()
  const named = (ENGRAM_SCALE_SYSTEMS as readonly string[]).filter((s) => only.includes(s))
  const engram = named.length > 0 ? named : [...ENGRAM_SCALE_SYSTEMS]
  const peers = only.filter((s) => s in PEERS)
  const unknown = only.filter((s) => s !== 'engram' && !peers.includes(s) && !engram.includes(s))
  if (unknown.length) throw new Error(`--scale: unknown system(s) ${unknown.join(', ')}`)
  const points: ScalePoint[] = []
  const skipped: string[] = []
  for (const system of [...engram, ...peers]) {
    for (const size of sizes) {
      if (system === 'engram-hybrid' && size > HYBRID_DEFAULT_MAX && !named.includes(system)) {
        skipped.push(
          `engram-hybrid at ${size.toLocaleString('en-US')}: not run by default (HNSW inserts 512-d vectors at roughly 700/s here, so the ` +
            `build alone takes minutes); \`--scale ${size} --only engram-hybrid\` runs it`,
        )
        continue
      }
      log(`scale ${system} ${size}: running in a child process ...`)
      const p = await runChild<ScalePoint>(MAIN, ['point', system, String(size)])
      points.push(p)
      log(
        `scale ${system} ${size}: build ${(p.buildMs / 1000).toFixed(1)} s, +${p.rssMb.toFixed(0)} MB RSS, ` +
          `p50 ${p.latency.p50.toFixed(3)} ms, p99 ${p.latency.p99.toFixed(3)} ms`,
      )
    }
  }
  const startupSize = sizes.includes(STARTUP_SIZE) ? STARTUP_SIZE : Math.max(...sizes)
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-startup-'))
  let startup: StartupResult
  try {
    log(
      `startup: committing ${startupSize} passages with vectors to SQLite, building and saving the indexes ...`,
    )
    const seed = await runChild<StartupSeed>(MAIN, ['startup-seed', dir, String(startupSize)])
    log(
      `startup: seeded (index build ${(seed.indexMs / 1000).toFixed(1)} s, snapshot save ` +
        `${(seed.save.ms / 1000).toFixed(2)} s, longest stall ${seed.save.maxStallMs.toFixed(0)} ms)`,
    )
    const open = async (mode: StartupMode) => {
      log(`startup: opening the brain in a new process (${mode}) ...`)
      const timing = await runChild<StartupTiming>(MAIN, ['startup-open', dir, mode])
      log(
        `startup ${startupSize} (${mode}): searchable ${(timing.searchableMs / 1000).toFixed(2)} s after ` +
          `engine start (indexes ${(timing.indexesMs / 1000).toFixed(2)} s)`,
      )
      return timing
    }
    // The snapshot starts first: the rebuild start runs with snapshots off and leaves them as they are.
    // A snapshot start takes seconds, so it runs SNAPSHOT_STARTS times: on this shared machine the BM25
    // rebuild inside it varies with other processes' load, and one run would be an anecdote.
    const snapshotRuns: StartupTiming[] = []
    for (let i = 0; i < SNAPSHOT_STARTS; i++) snapshotRuns.push(await open('snapshot'))
    const rebuild = await open('rebuild')
    const median = [...snapshotRuns].sort((a, b) => a.searchableMs - b.searchableMs)[
      Math.floor(SNAPSHOT_STARTS / 2)
    ]!
    startup = { seed, snapshot: median, snapshotRuns, rebuild }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const command = `npm run bench -- --scale ${sizes.join(',')}${only.length ? ` --only ${only.join(',')}` : ''}`
  writeFileSync(
    join(resultsDir, 'scale-curve.md'),
    scaleReport({ command, environment, points, skipped, startup }),
  )
  log(`wrote ${join(resultsDir, 'scale-curve.md')}`)
}
