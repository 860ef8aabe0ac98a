import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine, hashToken } from '@engram/core'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { buildApp } from '@engram/server'
import { readEveryEndpoint, type EndpointAnswer } from '../support/read-every-endpoint.js'

/**
 * Expiry (issue 28 item 4, docs/time.md): a source ingested with `ttl` is forgotten by the sweep once
 * the time is past, as `DELETE /sources/{id}` would (the marker test of forget-marker.test.ts, on
 * SQLite, in this process so that the test runs the sweep itself at a time it chooses: no test waits
 * on a clock). The marker is first found (search, every read endpoint, the files), then the sweep
 * runs, its forget task is awaited (the queue's settled event), and the word is in no answer and, once
 * the engine stopped, in no file of the data directory. Along the way: the options of the three
 * ingestion routes, their 400 and 422 answers, and `expires_at` in `GET /sources`.
 */

const TOKEN = 'spat_expiry-test-system-token-012345'
const headers = { ServicePAT: TOKEN }
const NEEDLE = 'vandrelquist'
/** A casing no stored form has, so that an echo of the request in a 4xx answer is told from content. */
const QUERY = 'VaNdReLqUiSt'

const DIARY = [
  'Helena Voss toured the Vandrelquist Gallery in Ghent. She sketched its vandrelquist fountain with Peter Lang.',
  'Peter Lang repairs clocks in Antwerp and sails on the Scheldt at weekends.',
].join('\n\n')
const LETTERS = 'Helena Voss wrote to Peter Lang about the clocks of Antwerp.'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const holds = (text: string) => text.toLowerCase().includes(NEEDLE)
const content = (a: EndpointAnswer) => (a.status >= 400 ? a.body.replaceAll(QUERY, '') : a.body)

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  )
}

/** Files under `dir` holding the word as bytes: UTF-8 (any case) or UTF-16 (as written). */
function filesHolding(dir: string): string[] {
  const utf16 = ['Vandrelquist', NEEDLE].map((w) => Buffer.from(w, 'utf16le'))
  return filesUnder(dir).filter((file) => {
    const bytes = readFileSync(file)
    return holds(bytes.toString('latin1')) || utf16.some((w) => bytes.includes(w))
  })
}

/** The fields of the answers these tests read (each answer has some of them). */
interface Body {
  task_id: string
  sources: { source_id: string; expires_at?: string }[]
  source: { expires_at: string }
  hits: unknown[]
  error: { code: string }
}

async function started() {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-expiry-'))
  dirs.push(dataDir)
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir }),
    version: '0.0.0-test',
    systemTokenHash: hashToken(TOKEN),
    expirySweepSeconds: 0,
  })
  await engram.start()
  const app = await buildApp({ engram })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const send = async (method: string, path: string, body?: unknown) => {
    const init: RequestInit = { method, headers }
    if (body instanceof FormData) init.body = body
    else if (body !== undefined) {
      init.headers = { ...headers, 'content-type': 'application/json' }
      init.body = JSON.stringify(body)
    }
    const response = await fetch(`${url}${path}`, init)
    return { status: response.status, json: (await response.json()) as Body }
  }
  return { dataDir, engram, app, url, send }
}

describe('expiry over REST (SQLite)', () => {
  it('forgets a source ingested with ttl at the first sweep past it: no answer, no file holds it', async () => {
    const { dataDir, engram, app, url, send } = await started()
    let stopped = false
    try {
      const sent = Date.now()
      const diary = await send('POST', '/ingest/', { text: DIARY, source_id: 'diary', ttl: 60 })
      expect(diary.status).toBe(202)
      const letters = await send('POST', '/ingest/', { text: LETTERS, source_id: 'letters' })
      for (const id of [diary.json.task_id, letters.json.task_id])
        expect((await engram.tasks.settled('default', id)).status).toBe('completed')

      // The sources show when they expire: diary in a minute, letters never.
      const listed = await send('GET', '/sources')
      const byId = new Map(
        (listed.json.sources as { source_id: string }[]).map((s) => [s.source_id, s]),
      )
      expect(byId.get('letters')).not.toHaveProperty('expires_at')
      const expiresAt = Date.parse((await send('GET', '/sources/diary')).json.source.expires_at)
      expect(expiresAt).toBeGreaterThanOrEqual(sent + 60_000)
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 60_000)
      expect(byId.get('diary')).toMatchObject({ expires_at: new Date(expiresAt).toISOString() })

      // The word is there, wherever a user would look.
      const found = await send('GET', `/retrieve/search?query=${QUERY}`)
      expect(found.json.hits.length).toBeGreaterThan(0)
      const entities = ['Helena Voss', 'Peter Lang']
      const sweepEndpoints = () => readEveryEndpoint({ url, headers, word: QUERY, entities })
      const before = (await sweepEndpoints()).filter((a) => holds(content(a))).map((a) => a.label)
      expect(before).toEqual(expect.arrayContaining(['GET /retrieve/search', 'GET /sources/diary']))
      expect(filesHolding(dataDir).length).toBeGreaterThan(0)

      // Before its time, nothing; after it, one forget, awaited through the queue's event.
      expect(await engram.expiry.sweep(new Date(expiresAt - 1))).toMatchObject({ expired: 0 })
      const swept = await engram.expiry.sweep(new Date(expiresAt))
      expect(swept).toMatchObject({ ran: true, expired: 1, submitted: 1 })
      const [forget] = swept.forgets
      expect(forget).toMatchObject({ brainId: 'default', sourceId: 'diary' })
      const task = await engram.tasks.settled('default', forget!.taskId)
      expect(task.status).toBe('completed')
      expect((await send('GET', `/tasks/${forget!.taskId}`)).json).toMatchObject({
        status: 'completed',
        result: { source_id: 'diary' },
      })

      // No endpoint returns the word; none fails; the other source is still there.
      const after = await sweepEndpoints()
      expect(after.filter((a) => a.status >= 500).map((a) => `${a.label}: ${a.status}`)).toEqual([])
      expect(after.filter((a) => holds(content(a))).map((a) => a.label)).toEqual([])
      expect((await send('GET', '/sources/diary')).status).toBe(404)
      expect((await send('GET', '/sources/letters')).status).toBe(200)

      // Nothing on disk once the engine stopped.
      await app.close()
      await engram.stop({ graceMs: 100 })
      stopped = true
      expect(filesHolding(dataDir)).toEqual([])
    } finally {
      if (!stopped) {
        await app.close()
        await engram.stop({ graceMs: 0 })
      }
    }
  }, 60_000)

  it('takes expires_at or ttl on the three ingestion routes; both are a 400 naming them', async () => {
    const { engram, app, send } = await started()
    try {
      const both = await send('POST', '/ingest/', {
        text: 'x',
        ttl: 5,
        expires_at: '2030-01-01T00:00:00Z',
      })
      expect(both.status).toBe(400)
      expect(both.json.error.code).toBe('VALIDATION_ERROR')
      expect(JSON.stringify(both.json)).toContain('expires_at')
      expect(JSON.stringify(both.json)).toContain('ttl')
      for (const body of [
        { text: 'x', ttl: 0 },
        { text: 'x', ttl: 1.5 },
        { text: 'x', ttl: 4e9 },
        { text: 'x', expires_at: 'next week' },
        { text: 'x', expires_at: '2030-01-01T00:00:00' },
      ]) {
        const res = await send('POST', '/ingest/', body)
        expect(res.status, JSON.stringify(body)).toBe(422)
        expect(res.json.error.code).toBe('VALIDATION_ERROR')
      }

      const form = (fields: Record<string, string>) => {
        const f = new FormData()
        f.append('file', new Blob(['Notes on the harbour.'], { type: 'text/plain' }), 'notes.txt')
        for (const [k, v] of Object.entries(fields)) f.append(k, v)
        return f
      }
      const fileBoth = await send(
        'POST',
        '/ingest/file',
        form({ ttl: '5', expires_at: '2030-01-01T00:00:00Z' }),
      )
      expect(fileBoth.status).toBe(400)
      expect((await send('POST', '/ingest/file', form({ ttl: 'soon' }))).status).toBe(422)
      const structuredBoth = await send('POST', '/ingest/structured', {
        data: [{ object: { name: 'Ghent', type: 'CITY' } }],
        ttl: 5,
        expires_at: '2030-01-01T00:00:00Z',
      })
      expect(structuredBoth.status).toBe(400)

      // A past expires_at is accepted (the next sweep forgets it); ttl on a file; on structured.
      const accepted = [
        await send(
          'POST',
          '/ingest/file',
          form({ source_id: 'file', expires_at: '2001-01-01T00:00:00+01:00' }),
        ),
        await send('POST', '/ingest/structured', {
          data: [{ object: { name: 'Ghent', type: 'CITY' } }],
          source_id: 'structured',
          ttl: 3600,
        }),
      ]
      for (const res of accepted) {
        expect(res.status).toBe(202)
        await engram.tasks.settled('default', res.json.task_id)
      }
      const file = await send('GET', '/sources/file')
      expect(file.json.source.expires_at).toBe('2000-12-31T23:00:00.000Z')
      const structured = await send('GET', '/sources/structured')
      expect(Date.parse(structured.json.source.expires_at)).toBeGreaterThan(Date.now() + 3_000_000)
      const swept = await engram.expiry.sweep()
      expect(swept.forgets.map((f) => f.sourceId)).toEqual(['file'])
    } finally {
      await app.close()
      await engram.stop({ graceMs: 0 })
    }
  })
})
