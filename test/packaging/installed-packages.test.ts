import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../support/spawn-server.js'
import { builtCli } from '../support/built-cli.js'
import { runProcess } from '../support/run-process.js'
import { expectQuickstartWorked } from '../library/quickstart-output.js'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Installed only by those who configure them (EMBEDDER=transformers, EXTRACTOR=llm). */
const OPTIONAL = ['@engram/embedder-transformers', '@engram/extractor-llm']

interface Packed {
  name: string
  filename: string
  files: { path: string }[]
}

let work: string
let app: string
let packed: Packed[]

/**
 * better-sqlite3 compiles SQLite from source when no prebuilt binary can be downloaded (this machine
 * reaches only the npm registry): two minutes on two cores. prebuild-install, its installer, first looks
 * for a local prebuild (`npm_config_better_sqlite3_local_prebuilds`), the documented way to install
 * offline; the workspace's own build of the same version, packed as one, keeps this test to about a
 * minute. Everything else installs as a user's `npm install` does, hnswlib-node's compilation included.
 */
async function betterSqlitePrebuild(dir: string): Promise<Record<string, string>> {
  const pkg = JSON.parse(
    await readFile(join(ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8'),
  ) as { version: string }
  const name = `better-sqlite3-v${pkg.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  await mkdir(dir, { recursive: true })
  await run('tar', [
    '-czf',
    join(dir, name),
    '-C',
    join(ROOT, 'node_modules/better-sqlite3'),
    'build/Release/better_sqlite3.node',
  ])
  return { npm_config_better_sqlite3_local_prebuilds: dir }
}

/** Runs `node <args>` in the installed project. */
const node = (args: string[], env: Record<string, string> = {}) =>
  runProcess(process.execPath, args, { cwd: app, env: { ...process.env, ...env } })

describe('the packages as a user installs them (npm pack, npm install, plain node)', () => {
  beforeAll(async () => {
    builtCli() // the tarballs hold the build: fail early if it is stale
    work = await mkdtemp(join(tmpdir(), 'engram-packages-'))
    app = join(work, 'app')
    await mkdir(app)
    // As the README packs them: every workspace package not marked private.
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'scripts/pack-packages.mjs'), work],
      {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      },
    )
    packed = JSON.parse(stdout) as Packed[]
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'engram-user', private: true, type: 'module' }, null, 2),
    )
    // The server, the client and the library's packages, with the packages they depend on given as
    // tarballs too (they are not on the registry); not the optional plugins.
    const tarballs = packed
      .filter((p) => !OPTIONAL.includes(p.name))
      .map((p) => join(work, p.filename))
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
      cwd: app,
      env: { ...process.env, ...(await betterSqlitePrebuild(join(work, 'prebuilds'))) },
      maxBuffer: 64 * 1024 * 1024,
    })
  }, 600_000)

  afterAll(async () => {
    if (work !== undefined) await rm(work, { recursive: true, force: true })
  })

  it('packs built code with types and maps, a README and the licence, and no tests', () => {
    expect(packed.map((p) => p.name).sort()).toEqual(
      [
        '@engram/adapter-postgres',
        '@engram/adapter-sqlite',
        '@engram/client',
        '@engram/console',
        '@engram/core',
        '@engram/embedder-transformers',
        '@engram/extractor-llm',
        '@engram/server',
      ].sort(),
    )
    for (const p of packed) {
      const files = p.files.map((f) => f.path)
      expect(files, p.name).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'LICENSE',
          'dist/src/index.js',
          'dist/src/index.d.ts',
          'dist/src/index.js.map',
        ]),
      )
      expect(
        files.filter((f) => /\.test\.|(^|\/)test\/|tsbuildinfo/.test(f)),
        p.name,
      ).toEqual([])
    }
  })

  it('installs the default server without optional plugins (no onnxruntime)', () => {
    // One copy of each package, the tarballs' (none fetched from the registry under the same name).
    for (const p of packed.filter((p) => !OPTIONAL.includes(p.name)))
      expect(existsSync(join(app, 'node_modules', p.name, 'dist/src/index.js')), p.name).toBe(true)
    expect(existsSync(join(app, 'node_modules/@engram/server/node_modules/@engram'))).toBe(false)
    expect(existsSync(join(app, 'node_modules/@engram/server/dist/src/cli.js'))).toBe(true)
    expect(existsSync(join(app, 'node_modules/onnxruntime-node'))).toBe(false)
    expect(existsSync(join(app, 'node_modules/@huggingface/transformers'))).toBe(false)
    expect(existsSync(join(app, 'node_modules/esbuild'))).toBe(false)
    expect(existsSync(join(app, 'node_modules/tsx'))).toBe(false)
  })

  it('runs the README library example with plain node', { timeout: 180_000 }, async () => {
    await copyFile(join(ROOT, 'examples/library-quickstart.mjs'), join(app, 'quickstart.mjs'))
    expectQuickstartWorked(await node(['quickstart.mjs']), app)
  })

  it('answers `engram --help` from the installed bin', async () => {
    const { code, stdout } = await node([join(app, 'node_modules/.bin/engram'), '--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: engram <command>')
  })

  it(
    'serves `engram serve` from the installed bin to the installed client',
    { timeout: 180_000 },
    async () => {
      const port = await freePort()
      const token = 'installed-packages-test-token'
      const server = spawn(join(app, 'node_modules/.bin/engram'), ['serve'], {
        cwd: app,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          ENGRAM_DATA_DIR: join(work, 'server-data'),
          SERVICEPAT_TOKEN: token,
          EMBEDDER: 'none',
          LOG_FORMAT: 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let log = ''
      server.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()))
      server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
      try {
        // The client script waits for /health itself (retrying refused connections), then ingests,
        // waits for the task, searches, reads the documentation search and the console.
        await writeFile(
          join(app, 'client.mjs'),
          `import { createEngramClient } from '@engram/client'
const baseUrl = process.argv[2]
const engram = createEngramClient({ baseUrl, token: process.argv[3] })
for (;;) {
  try { if ((await fetch(baseUrl + '/health')).ok) break } catch {}
  await new Promise((r) => setTimeout(r, 50))
}
const { task_id } = await engram.POST('/ingest/', { body: { text: 'Grace Hopper wrote the first compiler at Remington Rand in 1952.' } })
const task = await engram.waitForTask(task_id, { signal: AbortSignal.timeout(60_000) })
const { hits } = await engram.GET('/retrieve/search', { params: { query: { query: 'compiler', k: 3 } } })
const docs = await (await fetch(baseUrl + '/demo/search?query=brain+token')).json()
const page = await fetch(baseUrl + '/console/console.js')
console.log(JSON.stringify({ status: task.status, hit: hits[0]?.snippet, docs: docs.hits.length, console: page.status, bytes: (await page.arrayBuffer()).byteLength }))
`,
        )
        const { code, stdout, stderr } = await node([
          'client.mjs',
          `http://127.0.0.1:${port}`,
          token,
        ])
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
        const result = JSON.parse(stdout) as Record<string, unknown>
        expect(result.status).toBe('completed')
        expect(result.hit).toContain('Grace Hopper')
        expect(result.docs).toBeGreaterThan(0)
        expect(result.console).toBe(200)
        expect(result.bytes).toBeGreaterThan(10_000)
      } finally {
        server.kill('SIGTERM')
        const [code] = (await once(server, 'exit')) as [number | null]
        expect({ code, log: code === 0 ? '' : log }).toEqual({ code: 0, log: '' })
      }
    },
  )
})
