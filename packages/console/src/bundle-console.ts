import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ConsoleAsset } from './console-assets.js'

/** The console's files and their content types, as the server answers them under `/console/`. */
export const CONSOLE_FILES = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'explorer-layout-worker.js': 'text/javascript; charset=utf-8',
} as const

/** The bundles esbuild builds: the app, and the explorer's layout worker (a same-origin script, see layout-worker.ts). */
const ENTRIES = {
  'console.js': join('src', 'app', 'main.ts'),
  'explorer-layout-worker.js': join('src', 'app', 'explorer', 'layout-worker.ts'),
} as const

/**
 * Bundles the app with esbuild from its TypeScript sources (`src/app/main.ts`, sigma, graphology,
 * @engram/client), and the explorer's layout worker (`src/app/explorer/layout-worker.ts`, a classic
 * script: the CSP refuses the blob: URL graphology's own worker helper would use), and reads the
 * static files (`static/`), in memory. esbuild is a build-time tool
 * (a devDependency): `npm run build` runs this once and writes the result with `writeConsoleBundle`;
 * only a server running from sources (tsx, vitest) bundles at run time.
 */
export async function bundleConsole(root: string): Promise<Map<string, ConsoleAsset>> {
  const { build } = await import('esbuild')
  const assets = new Map<string, ConsoleAsset>()
  for (const [name, entry] of Object.entries(ENTRIES) as [keyof typeof ENTRIES, string][]) {
    const result = await build({
      entryPoints: [join(root, entry)],
      bundle: true,
      // The worker is started as a classic script (`new Worker(url)`), so it must not be a module.
      format: name === 'console.js' ? 'esm' : 'iife',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      sourcemap: false,
      write: false,
      legalComments: 'none',
      // Workspace packages export their TypeScript under `source` (as for tsx and vitest).
      conditions: ['source'],
      logLevel: 'silent',
    })
    assets.set(name, {
      contentType: CONSOLE_FILES[name],
      body: Buffer.from(result.outputFiles[0]!.contents),
    })
  }
  for (const name of ['index.html', 'console.css'] as const)
    assets.set(name, {
      contentType: CONSOLE_FILES[name],
      body: await readFile(join(root, 'static', name)),
    })
  return assets
}

/** Writes the bundle to `dir` (the package's `dist/console/`, which the built package serves). */
export async function writeConsoleBundle(root: string, dir: string): Promise<void> {
  const assets = await bundleConsole(root)
  await mkdir(dir, { recursive: true })
  for (const [name, asset] of assets) await writeFile(join(dir, name), asset.body)
}
