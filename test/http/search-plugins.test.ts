import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killHard, spawnServer, type ServerProcess } from '../support/spawn-server.js'

const TOKEN = 'spat_search-plugins-test-system-token'
const headers = { ServicePAT: TOKEN, 'content-type': 'application/json' }
const dir = mkdtempSync(join(tmpdir(), 'engram-search-plugins-'))

// A plugin written by the test, loaded through ENGRAM_PLUGINS like any researcher's module: BM25's
// candidates in reverse order, scored by their new rank.
const PLUGIN = `
export default () => ({
  kind: 'channel',
  name: 'lastfirst',
  yields: 'passages',
  async search(query, ctx) {
    const items = ctx.text
      .search('passages', query.text, query.depth)
      .reverse()
      .map((c, i) => ({ id: c.id, score: i + 1 }))
    return [{ name: 'lastfirst', signal: 'plugin', items }]
  },
})
`

let server: ServerProcess

interface SearchBody {
  hits: {
    id: string
    snippet: string
    score: number
    scores: { rrf?: number; plugin?: Record<string, number> }
  }[]
  channel_lists: Record<string, string[]>
  error: { code: string; message: string; resolution: string }
}

async function get(query: string) {
  const res = await fetch(`${server.url}/retrieve/search?${query}`, { headers })
  return { status: res.status, body: (await res.json()) as SearchBody }
}

beforeAll(async () => {
  writeFileSync(join(dir, 'lastfirst.mjs'), PLUGIN)
  server = await spawnServer({
    ENGRAM_DATA_DIR: join(dir, 'data'),
    SERVICEPAT_TOKEN: TOKEN,
    STORAGE: 'memory',
    LOG_LEVEL: 'info',
    ENGRAM_PLUGINS: `@engram/example-channel, ${join(dir, 'lastfirst.mjs')}`,
  })
  const accepted = await fetch(`${server.url}/ingest/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      text: 'The best new york pizza is sold near the station.\n\nPizza in York was new to me.\n\nA New York deli sells no pizza at all.',
    }),
  })
  const { task_id } = (await accepted.json()) as { task_id: string }
  // Until the task ends, however long that takes on a busy machine (the hook timeout bounds it):
  // its status is the signal, polled; a fixed number of polls was a clock.
  for (;;) {
    const task = (await (await fetch(`${server.url}/tasks/${task_id}`, { headers })).json()) as {
      status: string
    }
    if (task.status === 'completed') return
    if (task.status.includes('fail')) throw new Error(`ingestion ${task.status}`)
    await new Promise((r) => setTimeout(r, 50))
  }
})

afterAll(async () => {
  if (server !== undefined) await killHard(server)
  rmSync(dir, { recursive: true, force: true })
})

describe('search plugins loaded with ENGRAM_PLUGINS', () => {
  it('logs what it loaded', () => {
    expect(server.output()).toContain(
      '"plugins":["channel:phrase","fusion:combmnz","channel:lastfirst"]',
    )
  })

  it('shows a plugin channel as plugin:<name> in channel_lists and in hits’ scores.plugin', async () => {
    const { status, body } = await get(
      'query=pizza&channels=passages,plugin:lastfirst&fusion=rrf&k=10',
    )
    expect(status).toBe(200)
    const bm25 = body.channel_lists.bm25!
    expect(bm25.length).toBeGreaterThan(0)
    expect(body.channel_lists['plugin:lastfirst']).toEqual([...bm25].reverse())
    for (const hit of body.hits) {
      const rank = bm25.length - bm25.indexOf(hit.id)
      expect(hit.scores.plugin).toEqual({ lastfirst: rank })
      expect(hit.scores.rrf).toBeGreaterThan(0)
    }
  })

  it('runs the example phrase channel and CombMNZ fusion', async () => {
    const { status, body } = await get(
      'query=new%20york%20pizza&channels=passages,plugin:phrase&fusion=plugin:combmnz',
    )
    expect(status).toBe(200)
    expect(body.hits[0]!.snippet).toContain('new york pizza')
    // The channel's score, and the plugin fusion's own score, which the hit ranks by.
    expect(body.hits[0]!.scores.plugin).toEqual({ phrase: 1, combmnz: body.hits[0]!.score })
    expect(body.channel_lists['plugin:phrase']![0]).toBe(body.hits[0]!.id)
  })

  it('answers an unknown channel, fusion or rerank with 400 VALIDATION_ERROR naming the loaded ones', async () => {
    const cases: [string, string[]][] = [
      ['channels=plugin:nope', ['passages', 'communities', 'plugin:phrase', 'plugin:lastfirst']],
      ['channels=plugin:passages', ['passages', 'plugin:lastfirst']],
      ['fusion=plugin:nope', ['rrf', 'cc', 'none', 'plugin:combmnz']],
      ['fusion=linear', ['plugin:combmnz']],
      ['rerank=plugin:nope', ['plugin:dense', 'plugin:coverage', 'plugin:hops']],
    ]
    for (const [query, loaded] of cases) {
      const { status, body } = await get(`query=pizza&${query}`)
      expect(status, query).toBe(400)
      expect(body.error.code, query).toBe('VALIDATION_ERROR')
      for (const name of loaded) expect(body.error.message, query).toContain(name)
      expect(body.error.resolution, query).toMatch(/^Use one of: /)
    }
  })
})

describe('a bad ENGRAM_PLUGINS', () => {
  it('stops the start with a configuration error naming the module', async () => {
    const error = await spawnServer({
      ENGRAM_DATA_DIR: join(dir, 'bad'),
      SERVICEPAT_TOKEN: TOKEN,
      STORAGE: 'memory',
      ENGRAM_PLUGINS: './no/such/plugin.mjs',
    }).catch((e: unknown) => e as Error)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toContain('exited early (1)')
    expect((error as Error).message).toContain(
      "configuration error: ENGRAM_PLUGINS: Cannot import plugin module './no/such/plugin.mjs'",
    )
  })
})
