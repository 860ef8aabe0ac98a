import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The CLI `npm start` runs: the server package's built JavaScript, run by plain node. */
export const BUILT_CLI = join(ROOT, 'packages', 'server', 'dist', 'src', 'cli.js')

/** The workspace packages a spawned server loads, built by `npm run build` (`tsc -b`). */
const PACKAGES = [
  'packages/core',
  'packages/client',
  'packages/console',
  'packages/server',
  'adapters/sqlite',
  'adapters/postgres',
  'plugins/embedder-transformers',
  'plugins/extractor-llm',
  'plugins/example-channel',
]

function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/**
 * The built CLI, after checking that no package's sources are newer than its last build: tests that
 * spawn `engram serve` run what users run (`npm test` builds first), and a test run after an edit
 * without a build fails here with what to do instead of testing yesterday's server.
 */
export function builtCli(): string {
  const stale = PACKAGES.filter((pkg) => {
    const info = join(ROOT, pkg, 'dist', 'tsconfig.tsbuildinfo')
    return !existsSync(info) || newestSource(join(ROOT, pkg, 'src')) > statSync(info).mtimeMs
  })
  if (!existsSync(BUILT_CLI) || stale.length > 0)
    throw new Error(
      `The built server is missing or older than its sources (${stale.join(', ') || 'cli.js'}): run \`npm run build\` first (\`npm test\` does).`,
    )
  return BUILT_CLI
}
