import { relative, resolve, isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Repository root, from this file's location (benchmarks/src/paths.ts), so the CLI works from any cwd. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
export const benchmarksDir = resolve(repoRoot, 'benchmarks')
export const configsDir = resolve(benchmarksDir, 'configs')
export const resultsDir = resolve(benchmarksDir, 'results')
export const defaultRunsDir = resolve(benchmarksDir, 'runs')
/** Caches that only save time (embedded vectors); gitignored, safe to delete. */
export const cacheDir = resolve(benchmarksDir, '.cache')
/** The engine's fusion calibration table, written by `--calibrate-fusion`. */
export const calibrationTablePath = resolve(
  repoRoot,
  'packages/core/src/search/fusion-calibration-table.ts',
)
/** Datasets live beside the repository (`../shared/datasets`) and are read in place, never copied. */
export const defaultDataDir = resolve(repoRoot, '..', 'shared', 'datasets')

export function isInside(child: string, parent: string): boolean {
  const rel = relative(resolve(parent), resolve(child))
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}
