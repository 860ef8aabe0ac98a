import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { builtCli } from './built-cli.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

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

export interface ServerProcess {
  child: ChildProcess
  url: string
  output: () => string
}

/**
 * Starts `engram serve` as `npm start` does (the built CLI under plain node) in a child process and
 * waits until /health answers.
 */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  let output = ''
  const child = spawn(process.execPath, [builtCli(), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      EMBEDDER: 'none',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that a kill reaches every process it may have started.
    detached: true,
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited early (${child.exitCode}):\n${output}`)
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url, output: () => output }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  killGroup(child)
  throw new Error(`server did not start within 30 s:\n${output}`)
}

/**
 * Starts `engram serve` with `ROLE=worker` (no HTTP) and waits for its ready line; `url` is empty.
 * Its log level is at least `info`, for that line.
 */
export async function spawnWorker(env: Record<string, string>): Promise<ServerProcess> {
  let output = ''
  const child = spawn(process.execPath, [builtCli(), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, EMBEDDER: 'none', ...env, ROLE: 'worker', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`worker exited early (${child.exitCode}):\n${output}`)
    if (output.includes('worker running tasks')) return { child, url: '', output: () => output }
    await new Promise((r) => setTimeout(r, 100))
  }
  killGroup(child)
  throw new Error(`worker did not start within 30 s:\n${output}`)
}

/** SIGKILL to the server and anything it started (the whole process group). */
function killGroup(child: ChildProcess): void {
  process.kill(-child.pid!, 'SIGKILL')
}

export async function killHard(server: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  killGroup(server.child)
  await exited
}
