import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { minimalPdf } from '@engram/core/testing'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

let t: TestApp
beforeEach(async () => {
  t = await buildTestApp()
})
afterEach(async () => {
  await t.close()
})

function multipart(
  parts: { name: string; filename?: string; type?: string; content: string | Buffer }[],
) {
  const boundary = '----engramtest'
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
    )
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

async function finished(taskId: string) {
  await t.engram.tasks.idle()
  return (await t.app.inject({ method: 'GET', url: `/tasks/${taskId}`, headers: t.system })).json()
}

describe('/ingest/', () => {
  it('turns the Emily sentence into people, places, an event with its legs, an observation and changelog entries', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ingest/',
      headers: t.system,
      payload: {
        text: 'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
        meta_keys: { Source: 'notes' },
        source_timestamp: '2024-04-01T00:00:00Z',
      },
    })
    expect(res.statusCode).toBe(202)
    expect(res.json()).toEqual({
      message: 'Ingestion accepted',
      task_id: expect.any(String),
      // Without a `source_id` the task is its own source.
      source_id: res.json().task_id,
    })
    const task = await finished(res.json().task_id)
    expect(task).toMatchObject({
      status: 'completed',
      stage: 'completed',
      result: { passages: 1, events: 1 },
    })
    const entities = (
      await t.app.inject({ method: 'GET', url: '/retrieve/entities', headers: t.system })
    ).json().entities as {
      name: string
      labels: string[]
      happened_at: string | null
      uuid: string
      observations: unknown[]
    }[]
    const by = new Map(entities.map((e) => [e.name, e]))
    expect(by.get('Emily')?.labels).toContain('PERSON')
    expect(by.get('London')?.labels).toContain('PLACE')
    expect(by.get('AI Ethics Meetup')).toBeDefined()
    const event = entities.find((e) => e.labels.includes('EVENT'))!
    expect(event.happened_at).toBe('2024-03-08')
    const rels = (
      await t.app.inject({ method: 'GET', url: '/retrieve/relationships', headers: t.system })
    ).json().relationships as {
      subject: { name: string }
      predicate: { name: string; flow_key: string }
      object: { name: string }
    }[]
    const legs = rels.map((r) => `${r.subject.name} -${r.predicate.name}-> ${r.object.name}`).sort()
    expect(legs).toEqual(
      [
        `${event.name} -OCCURRED_IN-> London`,
        `${event.name} -OCCURRED_ON-> March 8, 2024`,
        `${event.name} -TARGETED-> AI Ethics Meetup`,
        `Emily -ORGANIZED-> ${event.name}`,
      ].sort(),
    )
    expect(new Set(rels.map((r) => r.predicate.flow_key)).size).toBe(1)
    expect(by.get('Emily')!.observations.length).toBeGreaterThan(0)
    const types = (
      await t.app.inject({ method: 'GET', url: '/retrieve/changelogs/types', headers: t.system })
    ).json().types
    expect(types).toEqual(expect.arrayContaining(['node_created', 'relationship_created']))
    const search = (
      await t.app.inject({
        method: 'GET',
        url: '/retrieve/search?query=ethics%20meetup',
        headers: t.system,
      })
    ).json()
    expect(search.hits[0]).toMatchObject({ channel: 'passages', extras: { source: 'notes' } })
  })

  it('returns the same task for the same Task-Identifier and writes passages once', async () => {
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/ingest/',
        headers: { ...t.system, 'Task-Identifier': 'client-42' },
        payload: { text: 'Bob likes tea.' },
      })
    const a = await send()
    const b = await send()
    expect(b.json().task_id).toBe('client-42')
    expect(a.json().task_id).toBe('client-42')
    await t.engram.tasks.idle()
    expect(
      (await t.app.inject({ method: 'GET', url: '/tasks/', headers: t.system })).json().tasks,
    ).toHaveLength(1)
    expect((await (await t.engram.store('default')).stats()).passages).toBe(1)
  })

  it('400 for both text and data, 422 for neither or a bad timestamp; JSON data and skip_enrichment work', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/',
          headers: t.system,
          payload: { text: 'a', data: { json_data: {} } },
        })
      ).statusCode,
    ).toBe(400)
    expect(
      (await t.app.inject({ method: 'POST', url: '/ingest/', headers: t.system, payload: {} }))
        .statusCode,
    ).toBe(422)
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/',
          headers: t.system,
          payload: { text: 'a', source_timestamp: 'someday' },
        })
      ).statusCode,
    ).toBe(422)
    const json = await t.app.inject({
      method: 'POST',
      url: '/ingest/',
      headers: t.system,
      payload: { data: { json_data: { name: 'Zed', city: 'Paris' } }, skip_enrichment: true },
    })
    expect(await finished(json.json().task_id)).toMatchObject({
      status: 'completed',
      result: { passages: 1, entities: 0 },
    })
  })
})

describe('/ingest/file', () => {
  it('ingests a text file with meta_keys and a brain_id field', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/system/brains',
      headers: t.system,
      payload: { brain_id: 'files' },
    })
    const form = multipart([
      { name: 'brain_id', content: 'files' },
      { name: 'meta_keys', content: '{"title":"Notes"}' },
      {
        name: 'file',
        filename: 'notes.md',
        type: 'text/markdown',
        content: '# Notes\n\nCaroline moved to Berlin in 2023. She loves painting.',
      },
    ])
    const res = await t.app.inject({
      method: 'POST',
      url: '/ingest/file',
      headers: { ...t.system, ...form.headers },
      payload: form.payload,
    })
    expect(res.statusCode).toBe(202)
    expect(res.json().message).toBe('File ingestion accepted')
    await t.engram.tasks.idle()
    const task = (
      await t.app.inject({
        method: 'GET',
        url: `/tasks/${res.json().task_id}`,
        headers: { ...t.system, 'X-Brain-ID': 'files' },
      })
    ).json()
    expect(task.status).toBe('completed')
    const hits = (
      await t.app.inject({
        method: 'GET',
        url: '/retrieve/search?query=painting',
        headers: { ...t.system, 'X-Brain-ID': 'files' },
      })
    ).json().hits
    expect(hits[0].extras).toMatchObject({ title: 'Notes', filename: 'notes.md' })
  })

  it('ingests a PDF through its text layer; an unreadable PDF gets 422 before any task', async () => {
    const pdf = multipart([
      {
        name: 'file',
        filename: 'minutes.pdf',
        type: 'application/pdf',
        content: minimalPdf([
          'Emily organized the AI Ethics Meetup in London.',
          'Omar chaired it.',
        ]),
      },
    ])
    const res = await t.app.inject({
      method: 'POST',
      url: '/ingest/file',
      headers: { ...t.system, ...pdf.headers },
      payload: pdf.payload,
    })
    expect(res.statusCode).toBe(202)
    const task = await finished(res.json().task_id)
    expect(task).toMatchObject({ status: 'completed', result: { passages: 1 } })
    const hits = (
      await t.app.inject({
        method: 'GET',
        url: '/retrieve/search?query=chaired',
        headers: t.system,
      })
    ).json().hits
    expect(hits[0].snippet).toBe('Emily organized the AI Ethics Meetup in London. Omar chaired it.')
    expect(hits[0].extras).toMatchObject({ filename: 'minutes.pdf' })

    const broken = multipart([
      { name: 'file', filename: 'broken.pdf', content: minimalPdf(['x']).subarray(0, 40) },
    ])
    const refused = await t.app.inject({
      method: 'POST',
      url: '/ingest/file',
      headers: { ...t.system, ...broken.headers },
      payload: broken.payload,
    })
    expect(refused.statusCode).toBe(422)
    expect(envelope(refused.body).error.code).toBe('VALIDATION_ERROR')
  })

  it('415 for executables and other types, 422 for broken JSON, 413 over the file limit', async () => {
    const exe = multipart([
      { name: 'file', filename: 'tool.exe', content: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]) },
    ])
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/file',
          headers: { ...t.system, ...exe.headers },
          payload: exe.payload,
        })
      ).statusCode,
    ).toBe(415)
    const elf = multipart([
      {
        name: 'file',
        filename: 'data.txt',
        content: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]),
      },
    ])
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/file',
          headers: { ...t.system, ...elf.headers },
          payload: elf.payload,
        })
      ).statusCode,
    ).toBe(415)
    const broken = multipart([{ name: 'file', filename: 'a.json', content: '{"a":' }])
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/file',
          headers: { ...t.system, ...broken.headers },
          payload: broken.payload,
        })
      ).statusCode,
    ).toBe(422)
    const notMultipart = await t.app.inject({
      method: 'POST',
      url: '/ingest/file',
      headers: t.system,
      payload: { file: 'x' },
    })
    expect(notMultipart.statusCode).toBe(415)
    const small = await buildTestApp({ maxFileBytes: 1024 })
    const big = multipart([{ name: 'file', filename: 'big.txt', content: 'x'.repeat(4096) }])
    const res = await small.app.inject({
      method: 'POST',
      url: '/ingest/file',
      headers: { ...small.system, ...big.headers },
      payload: big.payload,
    })
    expect(res.statusCode).toBe(413)
    expect(envelope(res.body).error.code).toBe('PAYLOAD_TOO_LARGE')
    await small.close()
  })
})

describe('/ingest/structured', () => {
  it('accepts triples and names malformed items', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/ingest/structured',
      headers: t.system,
      payload: {
        data: [
          {
            subject: { name: 'Ann', type: 'person' },
            subj_event: { name: 'bought' },
            event: { name: 'Purchase 1', type: 'purchase', happened_at: '2024-01-02' },
            event_obj: { name: 'item' },
            object: { name: 'Lamp', type: 'product' },
          },
        ],
      },
    })
    expect(ok.statusCode).toBe(202)
    expect(ok.json().message).toBe('Structured ingestion accepted')
    expect(await finished(ok.json().task_id)).toMatchObject({
      status: 'completed',
      result: { entities: 2, events: 1, relationships: 2, structured: 1 },
    })
    const bad = await t.app.inject({
      method: 'POST',
      url: '/ingest/structured',
      headers: t.system,
      payload: {
        data: [
          {
            object: { name: 'Lamp', type: 'product' },
            subject: { name: 'Ann', type: 'person' },
            subj_event: { name: 'likes' },
          },
          { object: { name: 'X', type: 't' }, event: { name: 'E', type: 'e' } },
        ],
      },
    })
    expect(bad.statusCode).toBe(422)
    expect(envelope(bad.body).detail).toEqual([
      expect.objectContaining({ loc: ['body', 'data', 1] }),
    ])
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/structured',
          headers: t.system,
          payload: { data: [{ object: { name: 'x' } }] },
        })
      ).statusCode,
    ).toBe(422)
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/structured',
          headers: t.system,
          payload: {
            data: [
              {
                object: { name: 'x', type: 'y' },
                subject: { name: 'a', type: 'b' },
                subj_event: { name: 'r' },
              },
            ],
            anchor: 'Ann',
          },
        })
      ).statusCode,
    ).toBe(422)
  })
})
