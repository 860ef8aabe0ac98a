import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { captureEnvironment } from '../run/environment.js'
import { runChild } from '../run/tsx-child.js'
import type { ForgetLatencyResult } from './forget-latency.js'
import {
  FORGET_BRAIN_PASSAGES,
  FORGET_BULK,
  FORGETTING_COMMAND,
  type ForgettingResult,
} from './forgetting-result.js'
import { forgettingReport } from './forgetting-report.js'
import type { GhostEmbedder, NoGhostsResult } from './no-ghosts.js'

const MAIN = fileURLToPath(new URL('./forgetting-main.ts', import.meta.url))
/** Seeding 100,000 HNSW inserts takes minutes on 2 cores; the children get an hour. */
const CHILD_TIMEOUT_MS = 60 * 60_000

/**
 * `npm run bench -- --forgetting`: issue 26's forgetting checks that are measurements rather than
 * tests, each in a fresh child process: forget latency and index memory in a 100,000-passage brain
 * without vectors and with SYNTHETIC vectors (forget-latency.ts), then "no ghosts" on LoCoMo dev with
 * no embedder and with use-lite (no-ghosts.ts). Writes results/forgetting.md and
 * results/data/forgetting.json.
 */
export async function runForgetting(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
  runs: number,
): Promise<ForgettingResult> {
  const environment = captureEnvironment()
  const loadBefore = loadavg()
  const wallMs: Record<string, number> = {}
  const progress = (text: string) => {
    for (const line of text.split('\n')) if (line.trim() !== '') log(line)
  }
  const timed = async <T>(name: string, args: string[]): Promise<T> => {
    log(`forgetting ${name}: running in a child process ...`)
    const t0 = performance.now()
    const result = await runChild<T>(
      MAIN,
      args,
      {},
      {
        timeoutMs: CHILD_TIMEOUT_MS,
        onStderr: progress,
      },
    )
    wallMs[name] = performance.now() - t0
    return result
  }

  const latency: ForgetLatencyResult[] = []
  for (const condition of ['none', 'vectors'] as const) {
    const r = await timed<ForgetLatencyResult>(`latency ${condition}`, [
      'latency',
      condition,
      String(FORGET_BRAIN_PASSAGES),
      String(runs),
      String(FORGET_BULK),
    ])
    latency.push(r)
    log(
      `  ${condition}: search no longer returns it after p50 ${r.unsearchable.p50.toFixed(1)} ms, ` +
        `p95 ${r.unsearchable.p95.toFixed(1)} ms; task p50 ${r.task.p50.toFixed(1)} ms`,
    )
  }
  const ghosts: NoGhostsResult[] = []
  for (const embedder of ['none', 'use-lite'] as GhostEmbedder[])
    ghosts.push(await timed<NoGhostsResult>(`ghosts ${embedder}`, ['ghosts', dataDir, embedder]))

  const result: ForgettingResult = {
    environment,
    loadBefore,
    loadAfter: loadavg(),
    runs,
    latency,
    ghosts,
    wallMs,
  }
  mkdirSync(join(resultsDir, 'data'), { recursive: true })
  const data = join(resultsDir, 'data', 'forgetting.json')
  writeFileSync(data, `${JSON.stringify(result, null, 2)}\n`)
  const file = join(resultsDir, 'forgetting.md')
  writeFileSync(file, forgettingReport(result, FORGETTING_COMMAND))
  log(`wrote ${file} and ${data}`)
  return result
}

/**
 * `--report`: results/forgetting.md rendered again from results/data/forgetting.json (after a change
 * to the report's code; the numbers stay). Returns the file written, or null without saved data.
 */
export function rewriteForgettingReport(resultsDir: string): string | null {
  const data = join(resultsDir, 'data', 'forgetting.json')
  if (!existsSync(data)) return null
  const saved = JSON.parse(readFileSync(data, 'utf8')) as ForgettingResult
  const file = join(resultsDir, 'forgetting.md')
  writeFileSync(file, forgettingReport(saved, FORGETTING_COMMAND))
  return file
}
