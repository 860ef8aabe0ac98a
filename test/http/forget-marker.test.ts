import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../../adapters/postgres/test/support/ensure-postgres.js'
import { readEveryEndpoint, type EndpointAnswer } from '../support/read-every-endpoint.js'
import { killHard, spawnServer, type ServerProcess } from '../support/spawn-server.js'

/**
 * The marker test of issue 26 ("How it will be checked", first item), on SQLite and on PostgreSQL:
 * the real built server, one body for both storages.
 *
 * "Ingest three texts, one carrying a unique word, into one source": re-ingesting a source REPLACES
 * its content (docs/forgetting.md), so three ingestions under one `source_id` would leave only the
 * last. The three texts are therefore one ingestion whose text is the three as paragraphs. A second
 * source mentions the same people, so the forget's cascade must keep what that source still supports
 * (the shared entities) while removing every trace of the word: from their descriptions, citations,
 * aliases, and from the history.
 *
 * The word is first found (search, and the sweep of every endpoint, and the files or `pg_dump`), so
 * the checks that it is gone can fail. Then `DELETE /sources/diary`, its task awaited, and no answer
 * of any read endpoint holds the word (test/support/read-every-endpoint.ts). Then the server stops
 * (SIGTERM) and no file under the data directory holds it as bytes (database, WAL, shared memory,
 * vector snapshots); on PostgreSQL `pg_dump` of the database does not either. The stem is looked for,
 * case-insensitively, so a stemmed BM25 term or a capitalised entity name counts too.
 *
 * Vectors are computed (`EMBEDDER=use-lite`), so HNSW entries and snapshot files are part of it.
 */

const TOKEN = 'spat_forget-marker-system-token-0123'
const headers = { ServicePAT: TOKEN }
const NEEDLE = 'quixotrell'
/**
 * The word as the sweep asks for it: search and entity lookup ignore case, and a casing no stored or
 * normalised form has lets an echo of the request be told from content (see `content`).
 */
const QUERY = 'QuIxOtReLlIaN'
const TERMINAL = new Set(['completed', 'failed', 'partial_failed'])

const DIARY = [
  'Margaret Hollis visited the Quixotrellian Observatory in Lisbon last spring. She photographed its quixotrellian telescope with Daniel Brooks.',
  'Margaret Hollis works as a nurse at Saint Mary Hospital in Boston. She goes hiking with her dog Biscuit every weekend.',
  'Daniel Brooks bought a green bicycle in Porto. He rides it along the harbour every morning before work.',
].join('\n\n')
const LETTERS =
  'Margaret Hollis wrote a long letter to Daniel Brooks about her garden in Boston. Daniel Brooks answered from Porto in June.'

const dirs: string[] = []
const databases = testDatabases()
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  await databases.dropAll()
})

const holds = (text: string) => text.toLowerCase().includes(NEEDLE)

/**
 * What an answer could hold of the brain's content. An error answer names what was asked ("Entity
 * 'QuIxOtReLlIaN' not found."): an echo of the request, not a trace, so in 4xx answers the query
 * word as sent is taken out; any other spelling of it still counts.
 */
const content = (a: EndpointAnswer) => (a.status >= 400 ? a.body.replaceAll(QUERY, '') : a.body)

/** Labels of the answers holding the word. */
const holding = (answers: readonly EndpointAnswer[]) =>
  answers.filter((a) => holds(content(a))).map((a) => a.label)

/** The answers holding the word, each with the text around it, for a failure message that says where. */
const excerpts = (answers: readonly EndpointAnswer[]) =>
  answers
    .filter((a) => holds(content(a)))
    .map((a) => {
      const at = content(a).toLowerCase().indexOf(NEEDLE)
      return `${a.label}: ...${content(a).slice(Math.max(0, at - 200), at + 100)}...`
    })

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  )
}

/** Files under `dir` holding the word as bytes: UTF-8 (any case) or UTF-16 (as written). */
function filesHolding(dir: string): string[] {
  const utf16 = ['Quixotrell', NEEDLE].map((w) => Buffer.from(w, 'utf16le'))
  return filesUnder(dir).filter((file) => {
    const bytes = readFileSync(file)
    return holds(bytes.toString('latin1')) || utf16.some((w) => bytes.includes(w))
  })
}

async function pgDump(url: string): Promise<string> {
  const { stdout } = await promisify(execFile)('pg_dump', ['--no-owner', `--dbname=${url}`], {
    maxBuffer: 1 << 30,
  })
  return stdout
}

async function send(server: ServerProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

/** Polls the task until it ends, however long that takes (the test timeout bounds it). */
async function settled(server: ServerProcess, taskId: string) {
  for (;;) {
    const { json } = await send(server, 'GET', `/tasks/${encodeURIComponent(taskId)}`)
    if (TERMINAL.has(String(json.status))) return json
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function ingest(server: ServerProcess, sourceId: string, text: string, title: string) {
  const accepted = await send(server, 'POST', '/ingest/', {
    text,
    source_id: sourceId,
    meta_keys: { title },
  })
  expect(accepted.status).toBe(202)
  expect(accepted.json.source_id).toBe(sourceId)
  const task = await settled(server, String(accepted.json.task_id))
  expect(task.status, `${JSON.stringify(task.error)}\n${server.output()}`).toBe('completed')
}

async function entityUuids(server: ServerProcess, queryText: string): Promise<string[]> {
  const { json } = await send(
    server,
    'GET',
    `/retrieve/entities?query_text=${encodeURIComponent(queryText)}&limit=1000`,
  )
  return (json.entities as { uuid: string }[]).map((e) => e.uuid)
}

/** SIGTERM, as an operator stops it, and the exit code once it exited. */
async function stop(server: ServerProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  return exited
}

interface Storage {
  readonly name: string
  /** The server's environment beside the data directory, and what to scan after it stopped. */
  setup(): Promise<{ env: Record<string, string>; dump?: () => Promise<string> }>
}

const STORAGES: Storage[] = [
  { name: 'SQLite', setup: async () => ({ env: { STORAGE: 'sqlite' } }) },
  {
    name: 'PostgreSQL',
    async setup() {
      const url = await databases.create()
      return { env: { STORAGE: 'postgres', DATABASE_URL: url }, dump: () => pgDump(url) }
    },
  },
]

describe.each(STORAGES)('forgetting a source on $name (the marker test)', (storage) => {
  it('leaves the word in no answer of any endpoint, no file of the data directory, no dump', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-forget-marker-'))
    dirs.push(dataDir)
    const { env, dump } = await storage.setup()
    const server = await spawnServer({
      ...env,
      ENGRAM_DATA_DIR: dataDir,
      SERVICEPAT_TOKEN: TOKEN,
      EMBEDDER: 'use-lite',
      EMBEDDER_WORKERS: '1',
    })
    try {
      await ingest(server, 'diary', DIARY, 'Quixotrellian travel diary')
      await ingest(server, 'letters', LETTERS, 'Letters')

      // The word is there, wherever a user would look.
      const found = await send(server, 'GET', `/retrieve/search?query=${QUERY}`)
      expect((found.json.hits as unknown[]).length).toBeGreaterThan(0)
      const markerEntities = await entityUuids(server, QUERY)
      const [margaret] = await entityUuids(server, 'Margaret Hollis')
      expect(margaret).toBeDefined()
      const entities = ['Margaret Hollis', 'Daniel Brooks', margaret!, ...markerEntities]
      const sweep = () => readEveryEndpoint({ url: server.url, headers, word: QUERY, entities })
      const before = holding(await sweep())
      expect(before).toEqual(
        expect.arrayContaining([
          'GET /retrieve/search',
          'GET /retrieve/',
          'POST /retrieve/context',
          'GET /retrieve/hops',
          // The shared person's record quotes it: the cascade has a survivor to rewrite.
          'GET /retrieve/entity/context Margaret Hollis',
          'GET /retrieve/entities skip=0',
          'GET /retrieve/relationships skip=0',
          'GET /retrieve/changelogs skip=0',
          'GET /retrieve/changelogs/stream?after=0',
          'GET /sources/diary',
        ]),
      )
      if (dump) expect(holds(await dump())).toBe(true)
      else expect(filesHolding(dataDir).length).toBeGreaterThan(0)

      // Forget it.
      const forget = await send(server, 'DELETE', '/sources/diary')
      expect(forget.status).toBe(202)
      expect(forget.json.source_id).toBe('diary')
      const task = await settled(server, String(forget.json.task_id))
      expect(task.status, `${JSON.stringify(task.error)}\n${server.output()}`).toBe('completed')
      expect(task.result).toMatchObject({ source_id: 'diary', passages: expect.any(Number) })
      expect((task.result as { passages: number }).passages).toBeGreaterThan(0)

      // No endpoint returns the word; none fails.
      const after = await sweep()
      expect(after.filter((a) => a.status >= 500).map((a) => `${a.label}: ${a.status}`)).toEqual([])
      expect(excerpts(after)).toEqual([])
      // What the other source supports is still there.
      const kept = await send(server, 'GET', '/retrieve/entity/status?target=Margaret%20Hollis')
      expect(kept.json.exists).toBe(true)
      const letters = await send(server, 'GET', '/retrieve/search?query=garden%20letter')
      expect(JSON.stringify(letters.json.hits)).toContain('letters')
      expect((await send(server, 'GET', '/sources/diary')).status).toBe(404)

      // Nothing on disk once the server stopped, and nothing in a dump.
      expect(await stop(server)).toBe(0)
      expect(filesHolding(dataDir)).toEqual([])
      if (dump) expect(holds(await dump())).toBe(false)
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null)
        await killHard(server).catch(() => {})
    }
  }, 60_000)
})
