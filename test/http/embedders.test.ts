import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { spawnServer, type ServerProcess } from '../support/spawn-server.js'

const TOKEN = 'spat_embedder-test-system-token-abcdef'
const API_KEY = 'sk-embedder-test-key-do-not-log-123'
const dir = mkdtempSync(join(tmpdir(), 'engram-embedders-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function ingestAndWait(server: ServerProcess, text: string) {
  const headers = { ServicePAT: TOKEN, 'content-type': 'application/json' }
  const accepted = await fetch(`${server.url}/ingest/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ text }),
  })
  expect(accepted.status).toBe(202)
  const { task_id } = (await accepted.json()) as { task_id: string }
  // Until the task ends, however long that takes on a busy machine (the test timeout bounds it):
  // its status is the signal, polled; a fixed number of polls was a clock.
  for (;;) {
    const task = (await (await fetch(`${server.url}/tasks/${task_id}`, { headers })).json()) as {
      status: string
    }
    if (['completed', 'partial_failed', 'failed'].includes(task.status)) return task
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** SIGTERM, as an operator would; resolves with the exit code. */
async function stop(server: ServerProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  return exited
}

describe.concurrent('the server process with a real embedder', () => {
  it('EMBEDDER=use-lite embeds ingested passages in worker threads of the built server', async () => {
    const server = await spawnServer({
      ENGRAM_DATA_DIR: join(dir, 'use-lite'),
      SERVICEPAT_TOKEN: TOKEN,
      STORAGE: 'memory',
      EMBEDDER: 'use-lite',
      EMBEDDER_WORKERS: '1',
      LOG_LEVEL: 'info',
    })
    const task = await ingestAndWait(server, 'Emily organized the AI Ethics Meetup in London.')
    expect(task).toMatchObject({ status: 'completed' })
    expect(server.output()).toContain('embedder workers ready')
    expect(server.output()).toContain('"embedder":"use-lite (512-d)"')
    expect(await stop(server)).toBe(0)
  })

  it('EMBEDDER=openai sends passages to the configured endpoint and never logs the key', async () => {
    const inputs: string[] = []
    const authorizations: (string | undefined)[] = []
    const fake = createServer((req, res) => {
      let raw = ''
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
      req.on('end', () => {
        const { input } = JSON.parse(raw) as { input: string[] }
        inputs.push(...input)
        authorizations.push(req.headers.authorization)
        const data = input.map((_, index) => ({ index, embedding: [index + 1, 1, 0, 0] }))
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ data }))
      })
    })
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve))
    const server = await spawnServer({
      ENGRAM_DATA_DIR: join(dir, 'openai'),
      SERVICEPAT_TOKEN: TOKEN,
      STORAGE: 'memory',
      EMBEDDER: 'openai',
      EMBEDDER_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`,
      EMBEDDER_MODEL: 'fake-embed',
      EMBEDDER_DIMENSION: '4',
      EMBEDDER_API_KEY: API_KEY,
      LOG_LEVEL: 'debug',
    })
    try {
      const task = await ingestAndWait(server, 'Quarterly revenue grew by ten percent.')
      expect(task).toMatchObject({ status: 'completed' })
      expect(inputs).toContain('Quarterly revenue grew by ten percent.')
      expect(new Set(authorizations)).toEqual(new Set([`Bearer ${API_KEY}`]))
      expect(server.output()).toContain('"embedder":"openai:fake-embed (4-d)"')
      expect(server.output()).not.toContain(API_KEY)
    } finally {
      await stop(server)
      fake.closeAllConnections()
      await new Promise((resolve) => fake.close(resolve))
    }
  })

  it('EMBEDDER=transformers with missing model files stops at start with a clear message', async () => {
    mkdirSync(join(dir, 'models'), { recursive: true })
    const error = await spawnServer({
      ENGRAM_DATA_DIR: join(dir, 'transformers'),
      SERVICEPAT_TOKEN: TOKEN,
      EMBEDDER: 'transformers',
      EMBEDDER_MODEL: 'all-MiniLM-L6-v2',
      EMBEDDER_MODEL_DIR: join(dir, 'models'),
    }).catch((e: unknown) => e as Error)
    expect(error).toBeInstanceOf(Error)
    const message = (error as Error).message
    expect(message).toContain('server exited early (1)')
    expect(message).toContain(
      `engram: configuration error: EMBEDDER=transformers: The transformers embedder found no model 'all-MiniLM-L6-v2': ${join(dir, 'models', 'all-MiniLM-L6-v2', 'config.json')} is missing`,
    )
    expect(message).not.toMatch(/\n\s+at /)
  })
})
