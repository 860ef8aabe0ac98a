import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

/** `source_id` on the three ingestion routes: echoed in the 202, stored on the source, checked. */
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t?.close()
})

/** A multipart body as a browser or the client would send it (FormData through Request). */
async function form(fields: Record<string, string>, file?: { name: string; content: string }) {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.append(name, value)
  if (file) data.append('file', new Blob([file.content], { type: 'text/markdown' }), file.name)
  const request = new Request('http://x/', { method: 'POST', body: data })
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { ...t.system, 'content-type': request.headers.get('content-type')! },
  }
}

/** `GET /sources/{id}`: the source and its passages. */
const source = async (id: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/sources/${encodeURIComponent(id)}`,
      headers: t.system,
    })
  ).json() as {
    source: {
      source_id: string
      filename: string
      title: string
      task_ids: string[]
      meta: Record<string, unknown>
    }
    passages: { source_id: string; metadata: Record<string, unknown> }[]
  }

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: t.system, payload })

const STRUCTURED = {
  data: [
    {
      subject: { name: 'Bob', type: 'person' },
      subj_event: { name: 'knows' },
      object: { name: 'Carol', type: 'person' },
    },
  ],
}

describe('source_id on /ingest/*', () => {
  it('is echoed beside task_id and names the source of what the task wrote', async () => {
    const text = await post('/ingest/', {
      text: 'Ada met Charles.',
      source_id: 'notes/ada.txt',
      skip_enrichment: true,
    })
    expect(text.statusCode).toBe(202)
    expect(text.json()).toEqual({
      message: 'Ingestion accepted',
      task_id: expect.any(String),
      source_id: 'notes/ada.txt',
    })
    const body = await form(
      { source_id: 'files/notes.md', meta_keys: '{"title":"Notes"}' },
      { name: 'notes.md', content: '# Notes\n\nCaroline moved to Berlin.' },
    )
    const file = await t.app.inject({ method: 'POST', url: '/ingest/file', ...body })
    expect(file.statusCode, file.body).toBe(202)
    expect(file.json()).toMatchObject({ source_id: 'files/notes.md' })
    const structured = await post('/ingest/structured', { ...STRUCTURED, source_id: 'crm:42' })
    expect(structured.statusCode).toBe(202)
    expect(structured.json()).toMatchObject({ source_id: 'crm:42' })
    await t.engram.tasks.idle()

    const ada = await source('notes/ada.txt')
    expect(ada.source.task_ids).toEqual([text.json().task_id])
    expect(ada.passages.map((p) => p.source_id)).toEqual(['notes/ada.txt'])
    expect((await source('files/notes.md')).source).toMatchObject({
      filename: 'notes.md',
      title: 'Notes',
      task_ids: [file.json().task_id],
    })
    expect((await source('crm:42')).source.task_ids).toEqual([structured.json().task_id])
  })

  it('a repeated Task-Identifier answers the first task’s source', async () => {
    const send = (sourceId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/ingest/',
        headers: { ...t.system, 'Task-Identifier': 'same-task' },
        payload: { text: 'Once.', source_id: sourceId, skip_enrichment: true },
      })
    expect((await send('first')).json()).toMatchObject({ task_id: 'same-task', source_id: 'first' })
    expect((await send('second')).json()).toMatchObject({
      task_id: 'same-task',
      source_id: 'first',
    })
    await t.engram.tasks.idle()
  })

  it('answers 422 naming source_id when it is empty, too long or holds a control character', async () => {
    const bad = ['', 'x'.repeat(257), 'line\nbreak', 'nul\u0000']
    for (const sourceId of bad) {
      const shown = JSON.stringify(sourceId).slice(0, 20)
      for (const [url, payload] of [
        ['/ingest/', { text: 'x', source_id: sourceId }],
        ['/ingest/structured', { ...STRUCTURED, source_id: sourceId }],
      ] as const) {
        const res = await post(url, payload)
        expect(res.statusCode, `${url} ${shown}`).toBe(422)
        expect(envelope(res.body).detail, `${url} ${shown}`).toEqual([
          expect.objectContaining({ loc: ['body', 'source_id'] }),
        ])
      }
      const body = await form({ source_id: sourceId }, { name: 'a.md', content: '# A' })
      const file = await t.app.inject({ method: 'POST', url: '/ingest/file', ...body })
      expect(file.statusCode, `/ingest/file ${shown}`).toBe(422)
      expect(envelope(file.body).detail).toEqual([
        expect.objectContaining({ loc: ['body', 'source_id'] }),
      ])
    }
    // Nothing was submitted for any of them.
    const tasks = await t.app.inject({ method: 'GET', url: '/tasks/', headers: t.system })
    expect((tasks.json() as { tasks: unknown[] }).tasks).toHaveLength(4)
  })

  it('accepts exactly 256 characters', async () => {
    const res = await post('/ingest/', {
      text: 'Long id.',
      source_id: 's'.repeat(256),
      skip_enrichment: true,
    })
    expect(res.statusCode).toBe(202)
    expect(res.json().source_id).toHaveLength(256)
    await t.engram.tasks.idle()
  })
})

describe('a source’s title', () => {
  it('a file sent without a title is titled by its own first heading; a caller’s title wins', async () => {
    const send = async (sourceId: string, fields: Record<string, string>, content: string) => {
      const body = await form({ source_id: sourceId, ...fields }, { name: 'readme.md', content })
      const res = await t.app.inject({ method: 'POST', url: '/ingest/file', ...body })
      expect(res.statusCode, res.body).toBe(202)
    }
    const markdown = '```sh\n# npm ci\n```\n\n# Getting *started*\n\nRun the server with npm start.'
    await send('readme/own', {}, markdown)
    await send('readme/named', { meta_keys: '{"title":"Handbook"}' }, markdown)
    await send('readme/none', {}, '## Install\n\nRun npm ci first.')
    await t.engram.tasks.idle()
    const own = await source('readme/own')
    expect(own.source.title).toBe('Getting started')
    // The source's meta stays as sent; its passages carry the title as a meta key.
    expect(own.source.meta).toEqual({ filename: 'readme.md' })
    expect(own.passages[0]!.metadata).toMatchObject({
      title: 'Getting started',
      filename: 'readme.md',
    })
    const named = await source('readme/named')
    expect(named.source.title).toBe('Handbook')
    expect(named.passages[0]!.metadata).toMatchObject({ title: 'Handbook' })
    const none = await source('readme/none')
    expect(none.source.title).toBe('')
    expect(none.passages[0]!.metadata).not.toHaveProperty('title')
  })
})
