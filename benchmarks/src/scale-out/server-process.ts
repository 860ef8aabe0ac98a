import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { builtCli } from '../../../test/support/built-cli.js'
import { repoRoot } from '../paths.js'

/** The system token of the servers a scale-out run spawns (loopback only, thrown away with them). */
export const SCALE_OUT_TOKEN = 'bench-scale-out-token-0123456789abcdef'

/** What `engram serve` prints once a `ROLE=worker` process runs tasks (it serves no HTTP to poll). */
const WORKER_READY = 'worker running tasks'

const START_TIMEOUT_MS = 60_000

export interface ServerProcess {
  /** `api`, `worker 1`, `sqlite all`, ...: names the process in logs and errors. */
  readonly name: string
  /** Where it listens; '' for a worker. */
  readonly url: string
  /** The process serving (the server itself: no tsx CLI in between), whose CPU time /proc shows. */
  readonly pid: number
  /** stdout and stderr so far. */
  output(): string
  /** SIGTERM (graceful: tasks finish or are left queued), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      )
    })
  })
}

/**
 * Starts `engram serve` with `env` over the server's defaults, as `npm start` runs it (the built CLI
 * under plain node), so the pid is the process doing the work and its /proc CPU time counts every
 * thread (extractor, embedder). It stays in this process's group, so a Ctrl-C or a kill of the
 * group reaches it even if this process dies before it can stop it. Resolves when /health answers, or
 * for `ROLE=worker` when it logs that it runs tasks.
 */
export async function spawnEngramServer(
  name: string,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const worker = env.ROLE === 'worker'
  const port = worker ? 0 : await freePort()
  const child = spawn(process.execPath, [builtCli(), 'serve'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SERVICEPAT_TOKEN: SCALE_OUT_TOKEN,
      // info on a worker for its ready line; an HTTP process at info would log every request.
      LOG_LEVEL: worker ? 'info' : 'warn',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = worker ? '' : `http://127.0.0.1:${port}`
  const handle: ServerProcess = {
    name,
    url,
    pid: child.pid!,
    output: () => output,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      await exited
      clearTimeout(timer)
    },
  }
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited early (${child.exitCode ?? child.signalCode}):\n${output}`)
    if (worker ? output.includes(WORKER_READY) : await healthy(url)) return handle
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await handle.stop(0)
  throw new Error(`${name} did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`)
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).ok
  } catch {
    return false
  }
}
