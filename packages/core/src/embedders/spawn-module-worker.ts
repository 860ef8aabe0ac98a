import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { EngramError } from '../errors.js'

/**
 * Starts a worker thread from a module given by its built (`.js`) URL, e.g.
 * `new URL('./use-lite-worker.js', import.meta.url)`.
 *
 * Built code (dist/) has the `.js` file and Node loads it directly. From TypeScript sources (vitest,
 * `tsx --conditions=source`) only the `.ts` file exists, and on Node 20 nothing transpiles it in a worker:
 * tsx registers its ESM hooks on the main thread only (worker threads do not inherit `module.register`
 * hooks before Node 22.22.3 / 24.11.1; see tsx `dist/esm/index.mjs`), and vitest transforms only its own
 * imports. So the worker is started from a one-line CommonJS bootstrap that installs tsx's `require` hook
 * (`tsx/cjs/api`, which transforms ESM syntax on the fly) and then requires the `.ts` file. The worker
 * module must therefore not use `import.meta` or top-level await.
 */
export function spawnModuleWorker(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  const builtPath = fileURLToPath(moduleUrl)
  if (existsSync(builtPath)) return new Worker(moduleUrl, options)
  const sourcePath = builtPath.replace(/\.js$/, '.ts')
  if (!existsSync(sourcePath)) {
    throw new EngramError('INTERNAL_ERROR', `Worker module not found: ${builtPath}.`, {
      resolution: 'Reinstall the package; its worker file is missing.',
    })
  }
  let tsxApi: string
  try {
    tsxApi = createRequire(import.meta.url).resolve('tsx/cjs/api')
  } catch (cause) {
    throw new EngramError(
      'INTERNAL_ERROR',
      `Running ${sourcePath} from TypeScript sources needs the 'tsx' package, which is not installed.`,
      {
        resolution: 'Install tsx (a dev dependency of the repository) or run the built package.',
        cause,
      },
    )
  }
  const bootstrap = `require(${JSON.stringify(tsxApi)}).register(); require(${JSON.stringify(sourcePath)})`
  return new Worker(bootstrap, { ...options, eval: true })
}
