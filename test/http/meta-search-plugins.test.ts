import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SearchPlugins } from '@engram/client'
import { killHard, spawnServer, type ServerProcess } from '../support/spawn-server.js'

const TOKEN = 'spat_meta-search-plugins-system-token'
const system = { ServicePAT: TOKEN }
const dir = mkdtempSync(join(tmpdir(), 'engram-meta-search-plugins-'))

// A third-party stage, loaded through ENGRAM_PLUGINS beside the example package: it reverses the head.
const FLIP = `
export default {
  kind: 'stage',
  name: 'flip',
  reads: 'candidates',
  async run(query, hits) {
    return new Map(hits.map((hit, i) => [hit.id, i + 1]))
  },
}
`

let server: ServerProcess
let brainToken: string

async function get(path: string, headers: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, { headers })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function listed(headers: Record<string, string> = system): Promise<SearchPlugins> {
  const { status, body } = await get('/meta/search-plugins', headers)
  expect(status).toBe(200)
  return body as unknown as SearchPlugins
}

beforeAll(async () => {
  writeFileSync(join(dir, 'flip.mjs'), FLIP)
  server = await spawnServer({
    ENGRAM_DATA_DIR: join(dir, 'data'),
    SERVICEPAT_TOKEN: TOKEN,
    STORAGE: 'memory',
    ENGRAM_PLUGINS: `@engram/example-channel,${join(dir, 'flip.mjs')}`,
  })
  const created = await fetch(`${server.url}/system/brains`, {
    method: 'POST',
    headers: { ...system, 'content-type': 'application/json' },
    body: JSON.stringify({ brain_id: 'notes' }),
  })
  brainToken = ((await created.json()) as { pat: string }).pat
  const accepted = await fetch(`${server.url}/ingest/`, {
    method: 'POST',
    headers: { ...system, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'The best new york pizza is sold near the station.' }),
  })
  const { task_id } = (await accepted.json()) as { task_id: string }
  // Polled until the task ends; the hook timeout bounds it.
  for (;;) {
    const { body } = await get(`/tasks/${task_id}`, system)
    if (body.status === 'completed') return
    if (String(body.status).includes('fail')) throw new Error(`ingestion ${String(body.status)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
})

afterAll(async () => {
  if (server !== undefined) await killHard(server)
  rmSync(dir, { recursive: true, force: true })
})

describe('GET /meta/search-plugins', () => {
  it('lists the built-ins, then the plugins loaded from ENGRAM_PLUGINS, as a request names them', async () => {
    expect(await listed()).toEqual({
      channels: [
        { name: 'passages', builtin: true, yields: 'passages' },
        { name: 'entities', builtin: true, yields: 'entities' },
        { name: 'events', builtin: true, yields: 'entities' },
        { name: 'communities', builtin: true, yields: 'entities' },
        { name: 'plugin:phrase', builtin: false, yields: 'passages' },
      ],
      fusions: [
        { name: 'rrf', builtin: true },
        { name: 'cc', builtin: true },
        { name: 'none', builtin: true },
        { name: 'plugin:combmnz', builtin: false },
      ],
      stages: [
        { name: 'plugin:dense', builtin: true, slot: 'rerank', requires: ['embed', 'vectors'] },
        { name: 'plugin:coverage', builtin: true, slot: 'rerank', requires: [] },
        { name: 'plugin:hops', builtin: true, slot: 'rerank', requires: [] },
        { name: 'plugin:flip', builtin: false, slot: 'rerank', requires: [] },
      ],
    })
  })

  it('lists exactly what /retrieve/search accepts: every name runs, and a 400 names the same set', async () => {
    const plugins = await listed()
    const search = (query: string) =>
      get(`/retrieve/search?query=pizza&${query}`, { ...system, 'X-Brain-ID': 'default' })
    const cases: [string, { name: string; requires?: string[] }[]][] = [
      ['channels', plugins.channels],
      ['fusion', plugins.fusions],
      ['rerank', plugins.stages],
    ]
    for (const [option, entries] of cases) {
      for (const { name, requires = [] } of entries) {
        const { status } = await search(`${option}=${encodeURIComponent(name)}`)
        // This server has no embedder: a stage that needs one is refused, as `requires` says.
        expect(status, `${option}=${name}`).toBe(requires.length === 0 ? 200 : 400)
      }
      const { status, body } = await search(`${option}=plugin:nope`)
      expect(status).toBe(400)
      const resolution = (body.error as { resolution: string }).resolution
      const named = resolution
        .replace(/^Use one of: /, '')
        .replace(/\.$/, '')
        .split(', ')
      expect(named.sort(), option).toEqual(entries.map((e) => e.name).sort())
    }
  })

  it('answers any valid token the same, with no brain selection, and refuses a missing or bad one', async () => {
    expect(await listed({ ServicePAT: brainToken })).toEqual(await listed())
    expect(await listed({ Authorization: `Bearer ${TOKEN}`, 'X-Brain-ID': 'notes' })).toEqual(
      await listed(),
    )
    const refused: Record<string, string>[] = [{}, { ServicePAT: 'spat_not-a-real-token-000' }]
    for (const headers of refused) {
      const { status, body } = await get('/meta/search-plugins', headers)
      expect(status).toBe(401)
      expect((body.error as { code: string }).code).toBe('AUTH_INVALID')
    }
  })
})
