// The second half of `npm run build` (after `tsc -b`): the files built packages serve beside their
// JavaScript. The console's browser bundle (esbuild is a build-time tool, never loaded by a running
// server) and the documentation the server indexes as its public documentation brain.
import { cp, rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import {
  CONSOLE_BUNDLE_DIR,
  CONSOLE_ROOT,
  writeConsoleBundle,
} from '../packages/console/dist/src/index.js'

const root = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url))

await writeConsoleBundle(CONSOLE_ROOT, CONSOLE_BUNDLE_DIR)

const docs = root('packages/server/dist/docs')
await rm(docs, { recursive: true, force: true })
await cp(root('docs'), docs, {
  recursive: true,
  // Markdown only: the images and the workspace manifest are not part of the documentation brain.
  filter: (source) => !/\.[a-z0-9]+$/i.test(source) || source.endsWith('.md'),
})
