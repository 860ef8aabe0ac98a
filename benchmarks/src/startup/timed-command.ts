import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { repoRoot } from '../paths.js'
import { baseEnv } from './startup-server.js'

/** One run of a short command, from `spawn()` to its exit. */
export interface TimedCommand {
  readonly ms: number
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `file args` from the repository root with only PATH and HOME in its environment, timed from just
 * before `spawn()` to its `exit` event; resolves once its output is read to the end (`close`).
 */
export async function timedCommand(file: string, args: readonly string[]): Promise<TimedCommand> {
  const started = performance.now()
  const child = spawn(file, args, {
    cwd: repoRoot,
    env: baseEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    let ms = Number.NaN
    child.once('error', reject)
    child.once('exit', () => (ms = performance.now() - started))
    child.once('close', (code) => resolve({ ms, code, stdout, stderr }))
  })
}
