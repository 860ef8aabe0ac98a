import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { benchmarksDir, repoRoot } from '../paths.js'

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
const LOADED = ['packages/core', 'adapters/sqlite', 'adapters/postgres', 'benchmarks']

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
