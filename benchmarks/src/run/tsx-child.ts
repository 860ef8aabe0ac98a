import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'

/** Prefix of the one stdout line a child entry prints its JSON result on. */
export const RESULT_MARK = '@@bench-result '

const TSX = join(repoRoot, 'node_modules', '.bin', 'tsx')

/** Prints a child's result for `runChild` / `startChild` to pick up. */
export function printResult(value: unknown): void {
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(value)}\n`)
}

export interface ChildHandle<T> {
  readonly child: ChildProcess
  /** The first result line the child printed. */
  readonly result: T
  /** Output seen so far (stderr and non-result stdout), for error messages. */
  output(): string
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>
}

/**
 * How a child entry runs: `tsx` runs `tsx --conditions=source <script.ts>` (the way `npm run bench`
 * runs) with this process's environment; `node` runs built JavaScript (`builtBenchScript`) with plain
 * node, as `npm start` runs the server, and only PATH and HOME of this environment (a measured start
 * inherits no NODE_OPTIONS or loader).
 */
export type ChildRuntime = 'tsx' | 'node'

function spawnEntry(
  runtime: ChildRuntime,
  script: string,
  args: readonly string[],
  env: Record<string, string>,
) {
  const clean: Record<string, string> = {}
  for (const key of ['PATH', 'HOME'] as const) {
    const value = process.env[key]
    if (value !== undefined) clean[key] = value
  }
  const [command, argv, base] =
    runtime === 'tsx'
      ? [TSX, ['--conditions=source', script, ...args], process.env]
      : [process.execPath, [script, ...args], clean]
  return spawn(command, argv, {
    cwd: repoRoot,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/**
 * Starts a child entry (`ChildRuntime`) in a separate process and resolves once it printed its first
 * result line, leaving it running (servers). A fresh process per measurement keeps resident memory and
 * JIT state of one measurement out of the next.
 */
export function startChild<T>(
  script: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
  timeoutMs = 30 * 60_000,
  /** Sees the child's stderr as it comes (progress of a long step). */
  onStderr?: (text: string) => void,
  runtime: ChildRuntime = 'tsx',
): Promise<ChildHandle<T>> {
  const child = spawnEntry(runtime, script, args, env)
  let output = ''
  let buffer = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} gave no result within ${timeoutMs} ms:\n${output.slice(-4000)}`))
    }, timeoutMs)
    let done = false
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      onStderr?.(chunk.toString())
    })
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      let nl: number
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 1)
        if (!done && line.startsWith(RESULT_MARK)) {
          done = true
          clearTimeout(timer)
          const result = JSON.parse(line.slice(RESULT_MARK.length)) as T
          resolve({ child, result, output: () => output, stop })
        } else output += `${line}\n`
      }
    })
    child.once('exit', (code, signal) => {
      if (done) return
      clearTimeout(timer)
      reject(
        new Error(`${script} exited (${code ?? signal}) without a result:\n${output.slice(-4000)}`),
      )
    })
  })
}

/** Runs a child entry to completion and returns its result (a child that lingers after it is killed). */
export async function runChild<T>(
  script: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
  options: { timeoutMs?: number; onStderr?: (text: string) => void; runtime?: ChildRuntime } = {},
): Promise<T> {
  const handle = await startChild<T>(
    script,
    args,
    env,
    options.timeoutMs,
    options.onStderr,
    options.runtime,
  )
  const { child } = handle
  if (child.exitCode === null && child.signalCode === null) {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      new Promise<void>((resolve) => child.once('exit', () => resolve())),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, 30_000))),
    ])
    clearTimeout(timer)
    await handle.stop(1000)
  }
  return handle.result
}
