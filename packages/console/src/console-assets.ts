import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** One file the server answers under `/console/`. */
export interface ConsoleAsset {
  contentType: string
  body: Buffer
}

/**
 * The package's root: this file runs from `src/` (tsx, vitest) or from `dist/src/` (built); either way
 * the app is bundled from its TypeScript sources in `src/app/` and the static files are in `static/`.
 */
const ROOT = fileURLToPath(
  new URL(import.meta.url.includes('/dist/src/') ? '../../' : '../', import.meta.url),
)
const STATIC_DIR = `${ROOT}static/`
const ENTRY = `${ROOT}src/app/main.ts`

let built: Promise<Map<string, ConsoleAsset>> | null = null

/**
 * The console's files by name (`index.html`, `console.js`, `console.css`): the app bundled by esbuild
 * from TypeScript, in memory, once per process. Every byte comes from this package and its npm
 * dependencies (sigma, graphology, @engram/client), so the page loads nothing from elsewhere.
 */
export function consoleAssets(): Promise<Map<string, ConsoleAsset>> {
  built ??= bundle().catch((error: unknown) => {
    built = null
    throw error
  })
  return built
}

async function bundle(): Promise<Map<string, ConsoleAsset>> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
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
  const assets = new Map<string, ConsoleAsset>()
  assets.set('console.js', {
    contentType: 'text/javascript; charset=utf-8',
    body: Buffer.from(result.outputFiles[0]!.contents),
  })
  for (const [name, contentType] of [
    ['index.html', 'text/html; charset=utf-8'],
    ['console.css', 'text/css; charset=utf-8'],
  ] as const) {
    assets.set(name, { contentType, body: await readFile(`${STATIC_DIR}${name}`) })
  }
  return assets
}
