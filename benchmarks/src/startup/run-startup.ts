import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { builtCli } from '../../../test/support/built-cli.js'
import { repoRoot } from '../paths.js'
import { captureEnvironment } from '../run/environment.js'
import { processCpuMs, threadCpuMs } from '../run/proc-cpu.js'
import { descendantPids, readProcMemory } from './proc-memory.js'
import { seedStartupDir } from './seed-startup-dir.js'
import { STARTUP_PARAGRAPHS, STARTUP_QUERIES } from './startup-corpus.js'
import { startupReport } from './startup-report.js'
import type { HealthRun, HelpRun, SearchRun, StartupResult } from './startup-result.js'
import { serverEnv, startTimedServer, type StartupEmbedder } from './startup-server.js'
import { timedCommand } from './timed-command.js'
import { timedSearches } from './timed-searches.js'

export const STARTUP_COMMAND = 'npm run bench -- --startup'
const EMBEDDERS: readonly StartupEmbedder[] = ['none', 'use-lite']
/** How long after `/health` the settled memory is read: start-up work left after listening shows here. */
const SETTLE_MS = 2000

const load1 = () => Math.round(loadavg()[0]! * 100) / 100

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `engram-startup-${prefix}-`))
}

/** A server on an empty data directory: time to health, memory then and 2 s later, then SIGTERM. */
async function healthRun(cli: string, embedder: StartupEmbedder): Promise<HealthRun> {
  const dir = tempDir(embedder)
  try {
    const load = load1()
    const server = await startTimedServer(cli, embedder, dir)
    const cpuAtHealthMs = processCpuMs(server.pid) ?? Number.NaN
    const mainThreadCpuAtHealthMs = threadCpuMs(server.pid, server.pid) ?? Number.NaN
    const atHealth = readProcMemory(server.pid)
    await delay(SETTLE_MS)
    const after = readProcMemory(server.pid)
    const childProcesses = descendantPids(server.pid).length
    const stopped = await server.stop()
    return {
      healthMs: server.healthMs,
      cpuAtHealthMs,
      mainThreadCpuAtHealthMs,
      rssAtHealthMb: atHealth.rssMb,
      hwmAtHealthMb: atHealth.hwmMb,
      rssAfterMb: after.rssMb,
      hwmAfterMb: after.hwmMb,
      childProcesses,
      stopMs: stopped.ms,
      exitCode: stopped.code,
      load1: load,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A server on a fresh copy of the seeded directory: time to health, then the first search and ten later
 * ones, each a different query (run `offset` starts at query `offset`, so the first query varies too).
 */
async function searchRun(
  cli: string,
  embedder: StartupEmbedder,
  seeded: string,
  offset: number,
): Promise<SearchRun> {
  const dir = tempDir(`${embedder}-seeded`)
  try {
    cpSync(seeded, dir, { recursive: true })
    const load = load1()
    const server = await startTimedServer(cli, embedder, dir)
    const cpuAtHealthMs = processCpuMs(server.pid) ?? Number.NaN
    const mainThreadCpuAtHealthMs = threadCpuMs(server.pid, server.pid) ?? Number.NaN
    const queries = STARTUP_QUERIES.map(
      (_, i) => STARTUP_QUERIES[(i + offset) % STARTUP_QUERIES.length]!,
    )
    const searches = await timedSearches(server.url, queries)
    const after = readProcMemory(server.pid)
    const stopped = await server.stop()
    if (searches.every((s) => s.hits === 0))
      throw new Error(`no search found anything in the seeded ${embedder} directory`)
    return {
      healthMs: server.healthMs,
      cpuAtHealthMs,
      mainThreadCpuAtHealthMs,
      firstQuery: searches[0]!.query,
      firstMs: searches[0]!.ms,
      laterMs: searches.slice(1).map((s) => s.ms),
      hits: searches.map((s) => s.hits),
      rssAfterMb: after.rssMb,
      hwmAfterMb: after.hwmMb,
      exitCode: stopped.code,
      load1: load,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function helpRun(file: string, args: readonly string[]): Promise<HelpRun> {
  const run = await timedCommand(file, args)
  return { ms: run.ms, code: run.code, usage: run.stdout.includes('Usage: engram <command>') }
}

/**
 * `npm run bench -- --startup`: issue 25's start-up targets against the built server (`npm run build`
 * first; a stale build is refused). Each figure is taken `runs` times after one untimed warm-up (so the
 * OS file cache is warm), the conditions interleaved so that a change of load on the shared machine
 * touches all of them alike: an empty data directory to `/health` with `EMBEDDER=none` and `use-lite` (with
 * the server's memory), the first search after `/health` against ten later ones on a seeded directory per
 * embedder, and `--help` of the built CLI (and through `npm run engram`, to compare with the issue's
 * figure). Writes `results/startup.md` and `results/data/startup.json`.
 */
export async function runStartup(
  resultsDir: string,
  log: (line: string) => void,
  runs: number,
): Promise<StartupResult> {
  const cli = builtCli()
  const cliPath = relative(repoRoot, cli)
  const environment = captureEnvironment()
  const loadBefore = loadavg()
  log(`built CLI: ${cliPath}; load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')}`)

  const seeded = {} as Record<StartupEmbedder, string>
  for (const embedder of EMBEDDERS) {
    seeded[embedder] = await seedStartupDir(cli, embedder)
    log(`seeded ${embedder}: ${STARTUP_PARAGRAPHS.length} paragraphs in ${seeded[embedder]}`)
  }
  const health: Record<StartupEmbedder, HealthRun[]> = { none: [], 'use-lite': [] }
  const search: Record<StartupEmbedder, SearchRun[]> = { none: [], 'use-lite': [] }
  const help: HelpRun[] = []
  const npmHelp: HelpRun[] = []
  try {
    for (let i = 0; i <= runs; i++) {
      const tag = i === 0 ? 'warm-up' : `run ${i}/${runs}`
      for (const embedder of EMBEDDERS) {
        const h = await healthRun(cli, embedder)
        log(
          `${tag} health ${embedder}: ${Math.round(h.healthMs)} ms (CPU ${Math.round(h.cpuAtHealthMs)} ms, main thread ${Math.round(h.mainThreadCpuAtHealthMs)}), RSS ${h.rssAtHealthMb.toFixed(0)} -> ${h.rssAfterMb.toFixed(0)} MB (peak ${h.hwmAfterMb.toFixed(0)}), exit ${h.exitCode}`,
        )
        if (i > 0) health[embedder].push(h)
      }
      for (const embedder of EMBEDDERS) {
        const s = await searchRun(cli, embedder, seeded[embedder], i)
        const later = [...s.laterMs].sort((a, b) => a - b)
        log(
          `${tag} search ${embedder}: health ${Math.round(s.healthMs)} ms (CPU ${Math.round(s.cpuAtHealthMs)} ms, main thread ${Math.round(s.mainThreadCpuAtHealthMs)}), first ${s.firstMs.toFixed(1)} ms, later ${later[0]!.toFixed(1)}..${later[later.length - 1]!.toFixed(1)} ms`,
        )
        if (i > 0) search[embedder].push(s)
      }
      const h = await helpRun(process.execPath, [cli, '--help'])
      const n = await helpRun('npm', ['run', 'engram', '--', '--help'])
      log(`${tag} --help: node ${Math.round(h.ms)} ms, npm run ${Math.round(n.ms)} ms`)
      if (i > 0) {
        help.push(h)
        npmHelp.push(n)
      }
    }
  } finally {
    for (const dir of Object.values(seeded)) rmSync(dir, { recursive: true, force: true })
  }
  const env = Object.entries(serverEnv('none', '<new temp dir>', 0))
    .map(
      ([k, v]) => `${k}=${k === 'PORT' ? '<free port>' : k === 'SERVICEPAT_TOKEN' ? '<fixed>' : v}`,
    )
    .join(' ')
  const result: StartupResult = {
    environment,
    loadBefore,
    loadAfter: loadavg(),
    runs,
    seededTasks: STARTUP_PARAGRAPHS.length,
    commands: {
      serve: `${env.replace('EMBEDDER=none', 'EMBEDDER=none|use-lite')} node ${cliPath} serve`,
      help: `node ${cliPath} --help`,
      npmHelp: 'npm run engram -- --help',
    },
    health,
    search,
    help,
    npmHelp,
  }
  mkdirSync(join(resultsDir, 'data'), { recursive: true })
  const data = join(resultsDir, 'data', 'startup.json')
  writeFileSync(data, `${JSON.stringify(result, null, 2)}\n`)
  const file = join(resultsDir, 'startup.md')
  writeFileSync(file, startupReport(result, STARTUP_COMMAND))
  log(`wrote ${file} and ${data}`)
  return result
}
