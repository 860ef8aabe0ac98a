import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { benchmarksDir, repoRoot } from '../paths.js'
import { RESULT_MARK } from '../run/tsx-child.js'
import { baseEnv } from './startup-server.js'

function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** What a benchmark child built from `benchmarks/` loads of the workspace (its other imports are npm's). */
const LOADED = ['packages/core', 'adapters/sqlite', 'benchmarks']

/**
 * The built JavaScript of a benchmark child entry (`benchmarks/dist/src/<relative>.js` for
 * `benchmarks/src/<relative>.ts`), after checking that none of the packages it loads is older than its
 * sources: `npm run build` (or `npx tsc -b`) first.
 */
export function builtBenchScript(relative: string): string {
  const script = join(benchmarksDir, 'dist', 'src', relative.replace(/\.ts$/, '.js'))
  const stale = LOADED.filter((pkg) => {
    const info = join(repoRoot, pkg, 'dist', 'tsconfig.tsbuildinfo')
    return !existsSync(info) || newestSource(join(repoRoot, pkg, 'src')) > statSync(info).mtimeMs
  })
  if (!existsSync(script) || stale.length > 0)
    throw new Error(
      `The built benchmarks are missing or older than their sources (${stale.join(', ') || relative}): ` +
        'run `npm run build` first.',
    )
  return script
}

/** How long a child that printed its result may take to exit before it is killed (as `runChild`). */
const EXIT_GRACE_MS = 30_000

/**
 * Runs `node <script> ...args` (built JavaScript, no tsx: what `npm start` runs) from the repository
 * root with only PATH and HOME in its environment, and resolves with the result it printed
 * (`printResult`) once it has exited (killed when it lingers 30 s after its result).
 */
export function runBuiltChild<T>(
  script: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<T> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: repoRoot,
    env: baseEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let stdout = ''
  let result: string | undefined
  let timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    if (result !== undefined) return
    result = stdout
      .split('\n')
      .slice(0, -1) // the last piece is not a whole line yet
      .find((line) => line.startsWith(RESULT_MARK))
    if (result === undefined) return
    clearTimeout(timer)
    timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS)
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      if (result !== undefined) resolve(JSON.parse(result.slice(RESULT_MARK.length)) as T)
      else
        reject(
          new Error(
            `${script} exited (${code ?? signal}) without a result:\n${(stdout + output).slice(-4000)}`,
          ),
        )
    })
  })
}
