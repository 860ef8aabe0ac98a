import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, startServer } from '@engram/server'
import { summarizeLatency } from '../metrics/percentiles.js'
import { captureEnvironment } from '../run/environment.js'
import { createGrower } from './grow-brain.js'
import { GROWTH_OPS, send, type GrowthOp, type OpContext } from './growth-operations.js'
import { opGrowthReport } from './op-growth-report.js'
import {
  OP_GROWTH_COMMAND,
  type GrowthStep,
  type OpGrowthResult,
  type OpTiming,
} from './op-growth-result.js'

const TOKEN = 'bench-system-token-0123456789abcdef'
/** Wall time one operation may take at one size before it stops at what it has (at least 3 requests). */
const OP_BUDGET_MS = 10_000

/** Timed requests per operation at a brain size: 40 at 1k, about 8 at 100k. */
export function repsAt(entities: number): number {
  return Math.max(5, Math.round(40 * (1000 / entities) ** 0.35))
}

async function timeOp(ctx: OpContext, op: GrowthOp, reps: number, base: number): Promise<OpTiming> {
  const once = async (n: number) => {
    const prepared = op.prepare ? await op.prepare(ctx, n) : undefined
    ctx.meter.bytes = 0
    const t0 = performance.now()
    await op.run(ctx, n, prepared)
    return performance.now() - t0
  }
  try {
    const firstMs = await once(base)
    const samples: number[] = []
    let bytes = 0
    const started = performance.now()
    for (let i = 1; i <= reps; i++) {
      samples.push(await once(base + i))
      bytes += ctx.meter.bytes
      if (samples.length >= 3 && performance.now() - started > OP_BUDGET_MS) break
    }
    const s = summarizeLatency(samples)
    return {
      name: op.name,
      shape: op.shape,
      count: s.count,
      firstMs,
      p50: s.p50,
      p99: s.p99,
      mean: s.mean,
      meanBytes: Math.round(bytes / s.count),
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return {
      name: op.name,
      shape: op.shape,
      count: 0,
      firstMs: NaN,
      p50: NaN,
      p99: NaN,
      mean: NaN,
      meanBytes: NaN,
      error: message.slice(0, 200),
    }
  }
}

async function listTotal(ctx: OpContext, url: string, field: 'total' | 'count'): Promise<number> {
  const page = (await send(ctx, 'GET', url)) as Record<string, number>
  return page[field] ?? 0
}

/**
 * `npm run bench -- --op-growth [sizes]`: one brain on SQLite grown to each size in turn, every
 * operation of `GROWTH_OPS` timed at each, then `results/op-growth.md` and `results/data/op-growth.json`.
 */
export async function runOpGrowth(
  sizes: readonly number[],
  resultsDir: string,
  log: (line: string) => void,
): Promise<OpGrowthResult> {
  const environment = captureEnvironment()
  const wall0 = performance.now()
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-growth-'))
  const config = loadConfig({
    STORAGE: 'sqlite',
    ENGRAM_DATA_DIR: dir,
    EMBEDDER: 'none',
    SERVICEPAT_TOKEN: TOKEN,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SHUTDOWN_GRACE_SECONDS: '0',
  })
  const server = await startServer(config, () => {})
  const brainId = config.defaultBrain ?? 'default'
  const headers = { servicepat: TOKEN }
  const grower = createGrower(server.app, server.engram, brainId, headers)
  const steps: GrowthStep[] = []
  try {
    for (const target of [...sizes].sort((a, b) => a - b)) {
      await grower.growTo(target, log)
      const base = {
        app: server.app,
        engram: server.engram,
        brainId,
        headers,
        grower,
        meter: { bytes: 0 },
      }
      const probe = {
        ...base,
        totals: { entities: 0, relationships: 0, observations: 0, changelogs: 0 },
      }
      const ctx: OpContext = {
        ...base,
        totals: {
          entities: await listTotal(probe, '/retrieve/entities?limit=1', 'total'),
          relationships: await listTotal(probe, '/retrieve/relationships?limit=1', 'total'),
          observations: await listTotal(probe, '/retrieve/observations?limit=1', 'count'),
          changelogs: await listTotal(probe, '/retrieve/changelogs?limit=1', 'count'),
        },
      }
      const stats = await (await server.engram.store(brainId)).stats()
      const reps = repsAt(stats.entities)
      const ops: OpTiming[] = []
      for (const [i, op] of GROWTH_OPS.entries()) {
        const timing = await timeOp(ctx, op, reps, i * 1000)
        ops.push(timing)
        log(
          `  ${String(target).padStart(6)} ${op.name.padEnd(28)} ` +
            (timing.count === 0
              ? `ERROR ${timing.error}`
              : `p50 ${timing.p50.toFixed(2)} ms  p99 ${timing.p99.toFixed(2)} ms  first ${timing.firstMs.toFixed(1)} ms  (n=${timing.count})`),
        )
      }
      const after = await (await server.engram.store(brainId)).stats()
      steps.push({
        target,
        entities: stats.entities,
        relationships: stats.relationships,
        passages: stats.passages,
        observations: stats.observations,
        changelog: stats.changelog,
        sources: stats.sources,
        growMs: grower.state.growMs,
        rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
        ops,
      })
      log(`  step ${target}: ${after.entities} entities after its write operations`)
      // Saved after every step: a run stopped at a larger size keeps what it measured.
      saveOpGrowth(resultsDir, {
        command: OP_GROWTH_COMMAND,
        environment,
        steps,
        wallMs: performance.now() - wall0,
      })
    }
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  const result = {
    command: OP_GROWTH_COMMAND,
    environment,
    steps,
    wallMs: performance.now() - wall0,
  }
  saveOpGrowth(resultsDir, result)
  log(`wrote ${join(resultsDir, 'op-growth.md')}`)
  return result
}

function saveOpGrowth(resultsDir: string, result: OpGrowthResult) {
  mkdirSync(join(resultsDir, 'data'), { recursive: true })
  writeFileSync(join(resultsDir, 'data', 'op-growth.json'), `${JSON.stringify(result, null, 2)}\n`)
  writeFileSync(join(resultsDir, 'op-growth.md'), opGrowthReport(result))
}

/** `--report`: rewrites `results/op-growth.md` from the saved data; null when never run. */
export function rewriteOpGrowthReport(resultsDir: string): string | null {
  const data = join(resultsDir, 'data', 'op-growth.json')
  if (!existsSync(data)) return null
  const file = join(resultsDir, 'op-growth.md')
  writeFileSync(file, opGrowthReport(JSON.parse(readFileSync(data, 'utf8')) as OpGrowthResult))
  return file
}
