import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PEERS } from '../peers/peer-registry.js'
import { captureEnvironment } from '../run/environment.js'
import { runChild } from '../run/tsx-child.js'
import type { ScalePoint } from './scale-point.js'
import { scaleReport } from './scale-report.js'
import { ENGRAM_SCALE_SYSTEMS, HYBRID_DEFAULT_MAX } from './scale-systems.js'

const MAIN = fileURLToPath(new URL('./scale-main.ts', import.meta.url))

/**
 * Scale curve over SYNTHETIC passages: each (system, size) point runs in a fresh child process (clean memory
 * figures), for the Engram systems (all, or those named in `only`) and the peers named in `only`. Writes
 * results/scale-curve.md. The start-up of a 100,000-passage brain is `--startup-large`
 * (`run-startup-large.ts`).
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
  const command = `npm run bench -- --scale ${sizes.join(',')}${only.length ? ` --only ${only.join(',')}` : ''}`
  writeFileSync(
    join(resultsDir, 'scale-curve.md'),
    scaleReport({ command, environment, points, skipped }),
  )
  log(`wrote ${join(resultsDir, 'scale-curve.md')}`)
}
