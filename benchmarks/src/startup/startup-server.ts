import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { repoRoot } from '../paths.js'
import { freePort } from '../scale-out/server-process.js'

/** The system token of every server the start-up benchmark starts (loopback only, thrown away with it). */
export const STARTUP_TOKEN = 'spat_startup-bench-token-0123456789'

/** How often `/health` is asked while the server starts: the resolution of the start-up figure. */
export const HEALTH_POLL_MS = 10

/** Guards against a server that never answers or never exits, far above any target; not measured. */
const START_LIMIT_MS = 120_000
const STOP_LIMIT_MS = 60_000

export type StartupEmbedder = 'none' | 'use-lite'

export interface StartedServer {
  readonly pid: number
  readonly url: string
  /** From just before `spawn()` to the first 200 of `GET /health`, ms. */
  readonly healthMs: number
  /** stdout and stderr so far. */
  output(): string
  /**
   * SIGTERM, then resolves when the process has exited: how long that took and how it ended (SIGKILL when
   * it was still running a minute after SIGTERM).
   */
  stop(): Promise<StoppedServer>
}

export interface StoppedServer {
  readonly code: number | null
  readonly signal: string | null
  /** SIGTERM to exit, ms. */
  readonly ms: number
}

/**
 * The environment of a started server: only what is named here (plus PATH and HOME), so that no setting of
 * the shell that runs the benchmark (STORAGE, NODE_OPTIONS with tsx's loader, ...) changes what is measured.
 */
export function serverEnv(
  embedder: StartupEmbedder,
  dataDir: string,
  port: number,
): Record<string, string> {
  return {
    ENGRAM_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SERVICEPAT_TOKEN: STARTUP_TOKEN,
    LOG_LEVEL: 'warn',
    EMBEDDER: embedder,
  }
}

/** `PATH` and `HOME` of this process: what `node` needs to run, nothing that configures Engram. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const key of ['PATH', 'HOME'] as const) {
    const value = process.env[key]
    if (value !== undefined) env[key] = value
  }
  return env
}

async function healthStatus(url: string): Promise<number> {
  try {
    const res = await fetch(`${url}/health`)
    await res.arrayBuffer()
    return res.status
  } catch {
    return 0 // not listening yet
  }
}

/**
 * Starts `node <cli> serve` from the repository root (as `npm start` does, without npm in between) on a
 * free port and times it to the first 200 of `GET /health`, asked every {@link HEALTH_POLL_MS} ms: this
 * polling is the measurement itself, so its resolution is stated with the figure. The server stays in this
 * process's group, so a Ctrl-C of the benchmark reaches it too.
 */
export async function startTimedServer(
  cli: string,
  embedder: StartupEmbedder,
  dataDir: string,
): Promise<StartedServer> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const started = performance.now()
  const child = spawn(process.execPath, [cli, 'serve'], {
    cwd: repoRoot,
    env: { ...baseEnv(), ...serverEnv(embedder, dataDir, port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const running = () => child.exitCode === null && child.signalCode === null
  const stop = async (): Promise<StoppedServer> => {
    const signalled = performance.now()
    if (running()) child.kill('SIGTERM')
    // A server that ignores SIGTERM shows as `signal: SIGKILL` in the result rather than hanging the run.
    const guard = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS)
    await exited
    clearTimeout(guard)
    return { code: child.exitCode, signal: child.signalCode, ms: performance.now() - signalled }
  }
  for (;;) {
    const status = await healthStatus(url)
    const elapsed = performance.now() - started
    if (status === 200)
      return { pid: child.pid!, url, healthMs: elapsed, output: () => output, stop }
    if (!running())
      throw new Error(
        `engram serve exited before /health answered (${child.exitCode ?? child.signalCode}):\n${output}`,
      )
    if (elapsed > START_LIMIT_MS) {
      child.kill('SIGKILL')
      await exited
      throw new Error(`engram serve did not answer /health within ${START_LIMIT_MS} ms:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS))
  }
}
