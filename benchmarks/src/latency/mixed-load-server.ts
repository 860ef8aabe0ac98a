import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { repoRoot } from '../paths.js'
import { freePort } from '../scale-out/server-process.js'
import type { MixedEmbedder } from './mixed-load-seed.js'

/** The system token of the mixed-load servers (loopback only, thrown away with them). */
export const MIXED_TOKEN = 'bench-mixed-load-token-0123456789abcdef'

const PRELOAD = fileURLToPath(new URL('./loop-delay-preload.mjs', import.meta.url))
const START_LIMIT_MS = 120_000

/** The server's event-loop delay over one phase (ms), from perf_hooks.monitorEventLoopDelay in it. */
export interface LoopDelay {
  readonly mean: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** Share of the 5 ms samples that came more than 20 ms late. */
  readonly over20: number
}

export interface MixedServer {
  readonly url: string
  readonly pid: number
  /** Ends the current phase of the loop-delay histogram and starts the next; resolves with the one ended. */
  loopDelay(): Promise<LoopDelay>
  output(): string
  stop(): Promise<void>
}

/**
 * `node --import loop-delay-preload.mjs <cli> serve` on `dataDir`, as `npm start` runs the built server plus
 * the bench-only preload that measures its event loop (nothing in the server changes). Only PATH and HOME
 * come from this process's environment, so no shell setting changes what is measured. `cpuProfDir` adds
 * `--cpu-prof` (the profile is written when the server exits); `settings`, more environment (a variant run).
 */
export async function startMixedServer(
  cli: string,
  embedder: MixedEmbedder,
  dataDir: string,
  cpuProfDir?: string,
  settings: Record<string, string> = {},
): Promise<MixedServer> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const delayFile = `${dataDir}.loop-delay.jsonl`
  rmSync(delayFile, { force: true }) // a previous server's phases are not this one's
  const env: Record<string, string> = {
    ENGRAM_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SERVICEPAT_TOKEN: MIXED_TOKEN,
    LOG_LEVEL: 'warn',
    EMBEDDER: embedder,
    SHUTDOWN_GRACE_SECONDS: '0',
    ENGRAM_BENCH_LOOP_DELAY_FILE: delayFile,
    ...settings,
  }
  for (const key of ['PATH', 'HOME'] as const) if (process.env[key]) env[key] = process.env[key]
  const flags = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []
  const child = spawn(process.execPath, [...flags, '--import', PRELOAD, cli, 'serve'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const running = () => child.exitCode === null && child.signalCode === null
  let seq = 0
  const server: MixedServer = {
    url,
    pid: child.pid!,
    output: () => output,
    async loopDelay() {
      const want = ++seq
      child.kill('SIGUSR2')
      const deadline = Date.now() + 30_000
      for (;;) {
        const text = existsSync(delayFile) ? readFileSync(delayFile, 'utf8') : ''
        const lines = text.split('\n').filter(Boolean)
        const line = lines.map((l) => JSON.parse(l) as LoopDelay & { seq: number })[want - 1]
        if (line?.seq === want) return line
        if (Date.now() > deadline || !running())
          throw new Error(`no event-loop delay from the server:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    async stop() {
      if (!running()) return
      child.kill('SIGTERM')
      const guard = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(guard)
    },
  }
  const started = Date.now()
  for (;;) {
    if (!running()) throw new Error(`engram serve exited before /health answered:\n${output}`)
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return server
    if (Date.now() - started > START_LIMIT_MS) {
      await server.stop()
      throw new Error(`engram serve did not answer /health in ${START_LIMIT_MS} ms:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
