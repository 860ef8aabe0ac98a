import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CONSOLE_FILES, bundleConsole } from './bundle-console.js'

/** One file the server answers under `/console/`. */
export interface ConsoleAsset {
  contentType: string
  body: Buffer
}

/** Whether this module runs built (`dist/src/`, an installed package) or from sources (tsx, vitest). */
const RUNS_BUILT = import.meta.url.includes('/dist/src/')
/** The package's root folder, built or not. */
export const CONSOLE_ROOT = fileURLToPath(new URL(RUNS_BUILT ? '../../' : '../', import.meta.url))
/** Where `npm run build` writes the bundle, and where the built package reads it. */
export const CONSOLE_BUNDLE_DIR = join(CONSOLE_ROOT, 'dist', 'console')

let loaded: Promise<Map<string, ConsoleAsset>> | null = null

/**
 * The console's files by name (`index.html`, `console.js`, `console.css`), once per process. Built,
 * they are the files `npm run build` bundled (no bundler at run time); from sources, the app is
 * bundled from its TypeScript in memory. Every byte comes from this package and its bundled
 * dependencies (sigma, graphology, @engram/client), so the page loads nothing from elsewhere.
 */
export function consoleAssets(): Promise<Map<string, ConsoleAsset>> {
  loaded ??= (RUNS_BUILT ? readBundle() : bundleConsole(CONSOLE_ROOT)).catch((error: unknown) => {
    loaded = null
    throw error
  })
  return loaded
}

async function readBundle(): Promise<Map<string, ConsoleAsset>> {
  const assets = new Map<string, ConsoleAsset>()
  for (const [name, contentType] of Object.entries(CONSOLE_FILES)) {
    try {
      assets.set(name, { contentType, body: await readFile(join(CONSOLE_BUNDLE_DIR, name)) })
    } catch (cause) {
      throw new Error(
        `The console bundle is missing (${join(CONSOLE_BUNDLE_DIR, name)}): run \`npm run build\`.`,
        { cause },
      )
    }
  }
  return assets
}
