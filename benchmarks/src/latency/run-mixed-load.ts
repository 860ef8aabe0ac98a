import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, relative } from 'node:path'
import { builtCli } from '../../../test/support/built-cli.js'
import { cacheDir, repoRoot } from '../paths.js'
import { captureEnvironment, type Environment } from '../run/environment.js'
import { processCpuMs } from '../run/proc-cpu.js'
import { benchVectors, vectorCacheDir } from '../vectors/bench-vectors.js'
import { summarizeProfile, type CpuProfile } from './cpu-profile-summary.js'
import { sampleRuns, type SampleRuns } from './cpu-profile-runs.js'
import { loadLatencyFixture } from './latency-fixture.js'
import { MIXED_SEQUENCE, runMixedLoad, type LoadResult, type MixedOp } from './mixed-load.js'
import { mixedRequests } from './mixed-load-requests.js'
import { seedMixedDir, type MixedEmbedder } from './mixed-load-seed.js'
import { MIXED_TOKEN, startMixedServer, type LoopDelay } from './mixed-load-server.js'

export const MIXED_SECONDS = 60
export const ALONE_SECONDS = 30
export const WARM_SECONDS = 5
export const MIXED_CONNECTIONS = 32
export const MIXED_EMBEDDERS: readonly MixedEmbedder[] = ['none', 'use-lite']

/**
 * Bench-only: the built CLI of another checkout (e.g. `git archive HEAD` built in /tmp/before), run on a
 * copy of the same seeded directory just before this checkout's, so before and after share one run.
 */
export const BASELINE_CLI_ENV = 'MIXED_BASELINE_CLI'
/**
 * Bench-only: `1` runs each server with `--cpu-prof`, keeps the main thread's top frames in the result and
 * leaves the profiles in a temporary folder (logged) for a closer look.
 */
export const CPU_PROF_ENV = 'MIXED_CPU_PROF'
/**
 * Bench-only: server settings (`NAME=value`, comma-separated, e.g. `TASK_YIELD_MS=5`) of one more run of
 * this checkout beside its default one, labelled with them: a setting's effect in the same run.
 */
export const VARIANT_ENV = 'MIXED_VARIANT'

export interface MixedPhase {
  readonly name: 'searches alone' | 'mixed'
  readonly load: LoadResult
  /** 1-minute load average when the phase started. */
  readonly load1: number
  /** CPU time of the server process (all threads) during the phase, ms; null off Linux. */
  readonly serverCpuMs: number | null
  readonly loopDelay: LoopDelay
}

export interface MixedRun {
  readonly embedder: MixedEmbedder
  /** `this checkout` or `baseline: <path>`. */
  readonly server: string
  readonly phases: readonly MixedPhase[]
  /** Top self-time frames of the server's main thread over its whole life, when profiled. */
  readonly topFrames?: readonly { frame: string; selfMs: number; selfShare: number }[]
  /** The main thread's SQLite transactions over its whole life, when profiled. */
  readonly transactions?: SampleRuns
}

export interface MixedLoadResult {
  readonly environment: Environment
  readonly seeds: readonly { embedder: MixedEmbedder; passages: number; seedMs: number }[]
  readonly runs: readonly MixedRun[]
  /** The built CLI of the `baseline` rows, when there are any. */
  readonly baselineCli?: string
  /** The settings of the variant run of this checkout (`MIXED_VARIANT`), when there was one. */
  readonly variant?: Record<string, string>
}

const searchOnly: readonly MixedOp[] = ['search']

/**
 * The main thread's profile (`CPU.<date>.<time>.<pid>.0.<n>.cpuprofile`) in `dir`: its top self-time
 * frames and its SQLite transactions (runs of consecutive samples inside better-sqlite3's transaction
 * function: each is one synchronous stretch the event loop could not serve a request in).
 */
function profileOf(dir: string, pid: number) {
  const file = readdirSync(dir).find((f) => f.includes(`.${pid}.0.`) && f.endsWith('.cpuprofile'))
  if (!file) return undefined
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile
  const topFrames = summarizeProfile(profile)
    .frames.slice(0, 15)
    .map(({ frame, selfMs, selfShare }) => ({ frame, selfMs, selfShare }))
  return { topFrames, transactions: sampleRuns(profile, /^sqliteTransaction$/) }
}

/** `MIXED_VARIANT`'s settings: `NAME=value` pairs, comma-separated; undefined when unset or blank. */
export function parseVariant(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const settings: Record<string, string> = {}
  for (const pair of value.split(',')) {
    const match = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(pair)
    if (!match) throw new Error(`${VARIANT_ENV}: expected NAME=value pairs, got "${pair}"`)
    settings[match[1]!] = match[2]!.trim()
  }
  return settings
}

export const describeSettings = (settings: Record<string, string>) =>
  Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ')

/**
 * One server on a copy of `seedDir`: a short untimed warm-up of searches, the searches alone for
 * {@link ALONE_SECONDS}, then the mixed load for {@link MIXED_SECONDS}, each with the server's CPU time and
 * event-loop delay over that phase. Alone comes first because the mixed load leaves the task queue full.
 */
async function runOneServer(
  cli: string,
  settings: Record<string, string>,
  label: string,
  embedder: MixedEmbedder,
  seedDir: string,
  requests: () => Parameters<typeof runMixedLoad>[2],
  log: (line: string) => void,
): Promise<MixedRun> {
  const dir = `${seedDir}-run`
  rmSync(dir, { recursive: true, force: true })
  cpSync(seedDir, dir, { recursive: true })
  const profDir = process.env[CPU_PROF_ENV] === '1' ? `${dir}-prof` : undefined
  if (profDir) mkdirSync(profDir, { recursive: true })
  const server = await startMixedServer(cli, embedder, dir, profDir, settings)
  const phases: MixedPhase[] = []
  try {
    await runMixedLoad(server.url, MIXED_TOKEN, requests(), searchOnly, WARM_SECONDS, 8)
    for (const [name, sequence, seconds] of [
      ['searches alone', searchOnly, ALONE_SECONDS],
      ['mixed', MIXED_SEQUENCE, MIXED_SECONDS],
    ] as const) {
      await server.loopDelay() // ends the previous phase's histogram
      const load1 = loadavg()[0]!
      const cpu0 = processCpuMs(server.pid)
      const load = await runMixedLoad(
        server.url,
        MIXED_TOKEN,
        requests(),
        sequence,
        seconds,
        MIXED_CONNECTIONS,
      )
      const cpu1 = processCpuMs(server.pid)
      const loopDelay = await server.loopDelay()
      const serverCpuMs = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0
      phases.push({ name, load, load1, serverCpuMs, loopDelay })
      const s = load.ops.find((o) => o.op === 'search')!
      log(
        `mixed ${embedder} ${label} ${name}: ` +
          load.ops
            .map(
              (o) =>
                `${o.op} ${o.requests} (${JSON.stringify(o.statuses)}) p50 ${o.latency.p50.toFixed(1)} p95 ${o.latency.p95.toFixed(1)} p99 ${o.latency.p99.toFixed(1)} ms`,
            )
            .join('; ') +
          `; search ${(s.requests / load.seconds).toFixed(0)}/s; server CPU ${((serverCpuMs ?? 0) / 1000).toFixed(1)} s; ` +
          `loop delay p99 ${loopDelay.p99.toFixed(1)} max ${loopDelay.max.toFixed(1)} ms; load ${load1.toFixed(2)}`,
      )
    }
  } finally {
    await server.stop()
  }
  const profiled = profDir ? profileOf(profDir, server.pid) : undefined
  rmSync(dir, { recursive: true, force: true })
  rmSync(`${dir}.loop-delay.jsonl`, { force: true })
  if (profDir) log(`mixed ${embedder} ${label}: CPU profiles kept in ${profDir}`)
  return { embedder, server: label, phases, ...(profiled ?? {}) }
}

/**
 * `--latency mixed`: the built server on a seeded SciFact brain, per embedder (none, then use-lite): the
 * searches alone, then searches, ingestions and model writes 70/20/10 over 32 connections for 60 s. With
 * {@link BASELINE_CLI_ENV} set, another build runs the same phases on a copy of the same seed first.
 * Writes results/data/latency-mixed.json; the report section is built from it.
 */
export async function runMixedLoadBench(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<MixedLoadResult> {
  const environment = captureEnvironment()
  const fixture = loadLatencyFixture(dataDir)
  const texts = fixture.locomo().groups.flatMap((g) => g.docs.map((d) => d.text))
  const cli = builtCli()
  const baseline = process.env[BASELINE_CLI_ENV]
  const variant = parseVariant(process.env[VARIANT_ENV])
  const servers: [string, string, Record<string, string>][] = [
    ...(baseline
      ? ([[baseline, 'baseline', {}]] as [string, string, Record<string, string>][])
      : []),
    [cli, 'this checkout', {}],
    ...(variant
      ? ([[cli, `this checkout, ${describeSettings(variant)}`, variant]] as [
          string,
          string,
          Record<string, string>,
        ][])
      : []),
  ]
  log(`mixed load: ${servers.map(([c]) => relative(repoRoot, c) || c).join(', then ')}`)
  const vectors = benchVectors({ cacheDir: vectorCacheDir(cacheDir) })
  const seeds: MixedLoadResult['seeds'][number][] = []
  const runs: MixedRun[] = []
  try {
    // Bench-only narrowing for investigations (e.g. MIXED_EMBEDDERS=none); the report states what ran.
    const only = process.env.MIXED_EMBEDDERS?.split(',')
    for (const embedder of MIXED_EMBEDDERS.filter((e) => !only || only.includes(e))) {
      const seed = await seedMixedDir(
        fixture,
        embedder,
        embedder === 'use-lite' ? vectors : null,
        log,
      )
      seeds.push({ embedder, passages: seed.passages, seedMs: seed.seedMs })
      log(
        `mixed ${embedder}: seeded ${seed.passages} passages in ${(seed.seedMs / 1000).toFixed(1)} s`,
      )
      try {
        // Bench-only MIXED_ROUNDS=n repeats the pair, in reverse order every other round (ABBA), so
        // that a change of the machine's other load does not favour one build.
        const rounds = Number(process.env.MIXED_ROUNDS ?? 1)
        for (let round = 0; round < rounds; round++) {
          for (const [path, label, settings] of round % 2 === 0
            ? servers
            : [...servers].reverse()) {
            // Fresh request factories per run: every server sees the same requests in the same order.
            const requests = () => mixedRequests(fixture.scifact.queries, texts)
            const name = rounds > 1 ? `${label} (round ${round + 1})` : label
            runs.push(await runOneServer(path, settings, name, embedder, seed.dir, requests, log))
          }
        }
      } finally {
        rmSync(seed.dir, { recursive: true, force: true })
      }
    }
  } finally {
    await vectors.close()
  }
  const result: MixedLoadResult = {
    environment,
    seeds,
    runs,
    ...(baseline ? { baselineCli: baseline } : {}),
    ...(variant ? { variant } : {}),
  }
  mkdirSync(join(resultsDir, 'data'), { recursive: true })
  writeFileSync(join(resultsDir, 'data', 'latency-mixed.json'), JSON.stringify(result, null, 2))
  return result
}
