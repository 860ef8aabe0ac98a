import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnServer, type ServerProcess } from '../support/spawn-server.js'

/**
 * Issue 11 item 7, with the real server process (`npm start`'s command): everything in the data
 * directory is the owner's only (directories 0700, files 0600), from the first start, and a data
 * directory an older version left 0755/0644 is tightened at the next start.
 */
const root = mkdtempSync(join(tmpdir(), 'engram-data-modes-'))
const dataDir = join(root, 'data')
let embedder: Server
let embedderUrl = ''

beforeAll(async () => {
  // A fake OpenAI-compatible embeddings server, so the brains get vector indexes to snapshot.
  embedder = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    req.on('end', () => {
      const { input } = JSON.parse(raw) as { input: string[] }
      const data = input.map((text, index) => ({
        index,
        embedding: [text.length % 7, 1 + (text.length % 3), 1, 0.5],
      }))
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ data }))
    })
  })
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve))
  embedderUrl = `http://127.0.0.1:${(embedder.address() as AddressInfo).port}/v1`
})
afterAll(async () => {
  embedder?.closeAllConnections()
  await new Promise((resolve) => embedder?.close(resolve))
  rmSync(root, { recursive: true, force: true })
})

const env = () => ({
  ENGRAM_DATA_DIR: dataDir,
  SERVICEPAT_TOKEN: '',
  EMBEDDER: 'openai',
  EMBEDDER_URL: embedderUrl,
  EMBEDDER_MODEL: 'fake-embed',
  EMBEDDER_DIMENSION: '4',
})

/** Every path under `dir` (relative) with its mode and kind. */
function tree(dir: string): { path: string; mode: number; dir: boolean }[] {
  const out: { path: string; mode: number; dir: boolean }[] = []
  const visit = (p: string, rel: string) => {
    const stat = statSync(p)
    out.push({ path: rel || '.', mode: stat.mode & 0o777, dir: stat.isDirectory() })
    if (stat.isDirectory())
      for (const name of readdirSync(p).sort()) visit(join(p, name), rel ? `${rel}/${name}` : name)
  }
  visit(dir, '')
  return out
}

function expectPrivate(dir: string) {
  const entries = tree(dir)
  for (const e of entries) expect(e.mode.toString(8), e.path).toBe(e.dir ? '700' : '600')
  return entries.map((e) => e.path)
}

async function stop(server: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

describe.skipIf(process.platform === 'win32')('the data directory of a real server', () => {
  it('is 0700 with 0600 files from the first start, and tightened after an older version', async () => {
    const first = await spawnServer(env())
    let token = ''
    try {
      token = /(spat_[A-Za-z0-9_-]{43})/.exec(first.output())?.[1] ?? ''
      expect(token).not.toBe('')
      const headers = { ServicePAT: token, 'content-type': 'application/json' }
      const brain = await fetch(`${first.url}/system/brains`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ brain_id: 'notes' }),
      })
      expect(brain.status).toBe(201)
      const entity = await fetch(`${first.url}/model/entity`, {
        method: 'POST',
        headers: { ...headers, 'X-Brain-ID': 'notes' },
        body: JSON.stringify({ name: 'Private Emily', labels: ['PERSON'] }),
      })
      expect(entity.status).toBe(201)
      const search = await fetch(`${first.url}/retrieve/search?query=emily&channels=entities`, {
        headers: { ...headers, 'X-Brain-ID': 'notes' },
      })
      expect(search.status).toBe(200)

      const running = expectPrivate(dataDir)
      for (const path of [
        'system-token.sha256',
        'catalog.sqlite',
        'catalog.sqlite-wal',
        'catalog.sqlite-shm',
        'brains',
        'brains/default.sqlite',
        'brains/notes.sqlite',
        'brains/notes.sqlite-wal',
        'brains/notes.sqlite-shm',
      ])
        expect(running).toContain(path)
    } finally {
      await stop(first)
    }
    // Shutdown saved the vector index snapshots.
    const stopped = expectPrivate(dataDir)
    expect(stopped.some((p) => /^brains\/notes\.indexes\/vectors-[^/]+\/hnsw\.bin$/.test(p))).toBe(
      true,
    )

    // As an older version left it.
    for (const e of tree(dataDir)) chmodSync(join(dataDir, e.path), e.dir ? 0o755 : 0o644)
    expect(statSync(join(dataDir, 'catalog.sqlite')).mode & 0o777).toBe(0o644)
    const second = await spawnServer(env())
    try {
      expectPrivate(dataDir)
      const login = await fetch(`${second.url}/meta/login-info`, { headers: { ServicePAT: token } })
      expect(login.status).toBe(200)
    } finally {
      await stop(second)
    }
    expectPrivate(dataDir)
  })
})
