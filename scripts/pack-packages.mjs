// `npm run pack:packages [-- <dir>]`: one tarball per published workspace package (every one not marked
// `private`) in <dir> (default `packed/`), built first by `npm run build`. npm's own `pack` runs each
// package's `prepack` (scripts/prepack.mjs). Prints npm's JSON report of the tarballs on stdout.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const destination = resolve(process.argv[2] ?? join(root, 'packed'))
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const dirs = workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`)
    : [pattern],
)
const published = dirs.filter(
  (dir) => !JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).private,
)
mkdirSync(destination, { recursive: true })
const report = execFileSync(
  'npm',
  [
    'pack',
    ...published.flatMap((dir) => ['--workspace', dir]),
    '--pack-destination',
    destination,
    '--json',
    '--silent',
  ],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
)
process.stdout.write(report)
