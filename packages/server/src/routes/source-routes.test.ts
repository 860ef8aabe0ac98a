import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

/**
 * `/sources` and the `DELETE /model/*` routes over REST: listing and filters, a source with its
 * passages, forgetting as a task, bad input (422), unknown ids (404), ids that need percent-encoding,
 * and brain isolation. What a forget removes is core's (packages/core/src/sources); here only what the
 * routes promise is checked.
 */
let t: TestApp
/** A brain token of brain `other`, which must not reach the default brain's sources or records. */
let otherToken: Record<string, string>

/** A text of `paragraphs` paragraphs of `words` words each: several passages of one source. */
const longText = (paragraphs: number, words = 200) =>
  Array.from(
    { length: paragraphs },
    (_, p) =>
      `Paragraph ${p} says ${Array.from({ length: words }, (_, w) => `w${p}x${w}`).join(' ')}.`,
  ).join('\n\n')

const SLASHED = 'docs/guide a+b?.md'
const enc = encodeURIComponent

async function ingest(payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/ingest/', headers: t.system, payload })
  expect(res.statusCode, res.body).toBe(202)
  return res.json() as { task_id: string; source_id: string }
}

const get = (url: string, headers = t.system) => t.app.inject({ method: 'GET', url, headers })
const del = (url: string, headers = t.system) => t.app.inject({ method: 'DELETE', url, headers })

beforeAll(async () => {
  t = await buildTestApp()
  const created = await t.app.inject({
    method: 'POST',
    url: '/system/brains',
    headers: t.system,
    payload: { brain_id: 'other' },
  })
  otherToken = { ServicePAT: (created.json() as { pat: string }).pat }
  await ingest({
    text: longText(3),
    source_id: SLASHED,
    meta_keys: { title: 'Alpha guide', project: 'apollo' },
    skip_enrichment: true,
  })
  await ingest({
    text: 'Notes about zeus.',
    source_id: 'notes-2',
    meta_keys: { project: 'zeus', n: 2 },
    skip_enrichment: true,
  })
  await ingest({ text: 'A text without a source id.', skip_enrichment: true })
  await t.engram.tasks.idle()
})
afterAll(async () => {
  await t?.close()
})

interface SourceWire {
  source_id: string
  title: string
  filename: string
  meta: Record<string, unknown>
  counts: { passages: number }
  task_ids: string[]
  created_at: string
  updated_at: string
}

describe('GET /sources', () => {
  it('lists every source, most recently updated first, with its wire fields', async () => {
    const res = await get('/sources')
    expect(res.statusCode).toBe(200)
    const body = res.json() as { sources: SourceWire[]; total: number; message: string }
    expect(body.total).toBe(3)
    const updated = body.sources.map((s) => s.updated_at)
    expect(updated).toEqual([...updated].sort().reverse())
    const alpha = body.sources.find((s) => s.source_id === SLASHED)!
    expect(alpha).toMatchObject({
      title: 'Alpha guide',
      filename: '',
      meta: { title: 'Alpha guide', project: 'apollo' },
      content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      kind: 'ingest_text',
      created_at: expect.any(String),
      task_ids: [expect.any(String)],
    })
    expect(alpha.counts.passages).toBeGreaterThan(1)
    // The source of an ingestion without `source_id` is its task.
    const unnamed = body.sources.find((s) => !['notes-2', SLASHED].includes(s.source_id))!
    expect(unnamed.task_ids).toEqual([unnamed.source_id])
  })

  it('filters by text and meta, and pages', async () => {
    const ids = async (query: string) =>
      ((await get(`/sources?${query}`)).json() as { sources: SourceWire[] }).sources.map(
        (s) => s.source_id,
      )
    expect(await ids('query_text=ALPHA')).toEqual([SLASHED])
    expect(await ids('query_text=notes-')).toEqual(['notes-2'])
    expect(await ids(`meta=${enc('{"project":"apollo"}')}`)).toEqual([SLASHED])
    expect(await ids(`meta=${enc('{"n":2}')}`)).toEqual(['notes-2'])
    // Typed: the number 2 is not the string "2".
    expect(await ids(`meta=${enc('{"n":"2"}')}`)).toEqual([])
    expect(await ids(`meta=${enc('{"project":"apollo","n":2}')}`)).toEqual([])
    const page = (await get('/sources?limit=1&skip=1')).json() as {
      sources: SourceWire[]
      total: number
    }
    expect(page.sources).toHaveLength(1)
    expect(page.total).toBe(3)
  })

  it('answers 422 naming the parameter for a bad meta filter or page', async () => {
    for (const [query, loc] of [
      ['meta=not-json', ['query', 'meta']],
      [`meta=${enc('[1]')}`, ['query', 'meta']],
      [`meta=${enc('{"a":{"b":1}}')}`, ['query', 'meta']],
      ['limit=0', ['query', 'limit']],
      ['skip=-1', ['query', 'skip']],
    ] as const) {
      const res = await get(`/sources?${query}`)
      expect(res.statusCode, query).toBe(422)
      const body = envelope(res.body)
      expect(body.error.code).toBe('VALIDATION_ERROR')
      expect(body.detail, query).toEqual([expect.objectContaining({ loc })])
    }
  })
})

describe('GET /sources/{source_id}', () => {
  it('answers the source and a page of its passages in text order, the id percent-encoded', async () => {
    const res = await get(`/sources/${enc(SLASHED)}`)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as {
      source: SourceWire
      passages: { id: string; text: string; source_id: string }[]
      total: number
    }
    expect(body.source.source_id).toBe(SLASHED)
    expect(body.total).toBe(body.source.counts.passages)
    expect(body.passages).toHaveLength(body.total)
    expect(body.passages.every((p) => p.source_id === SLASHED)).toBe(true)
    expect(body.passages[0]!.text).toMatch(/^Paragraph 0 /)
    expect(body.passages.at(-1)!.text).toContain(`w2x199`)
    const second = (await get(`/sources/${enc(SLASHED)}?limit=1&skip=1`)).json() as {
      passages: { id: string }[]
      total: number
    }
    expect(second.passages.map((p) => p.id)).toEqual([body.passages[1]!.id])
    expect(second.total).toBe(body.total)
  })

  it('answers 404 for an unknown id, 422 for an id over 256 characters', async () => {
    const unknown = await get('/sources/no-such-source')
    expect(unknown.statusCode).toBe(404)
    expect(envelope(unknown.body).error.code).toBe('RESOURCE_NOT_FOUND')
    const long = await get(`/sources/${'x'.repeat(257)}`)
    expect(long.statusCode).toBe(422)
    expect(envelope(long.body).detail).toEqual([
      expect.objectContaining({ loc: ['path', 'source_id'] }),
    ])
  })

  it('reaches a 256-character id made of characters that must be encoded', async () => {
    const id = '/?#%'.repeat(64)
    const accepted = await ingest({ text: 'Encoded id.', source_id: id, skip_enrichment: true })
    expect(accepted.source_id).toBe(id)
    await t.engram.tasks.idle()
    const res = await get(`/sources/${enc(id)}`)
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
    expect(res.json().source.source_id).toBe(id)
    expect((await del(`/sources/${enc(id)}`)).statusCode).toBe(202)
    await t.engram.tasks.idle()
  })
})

describe('DELETE /sources/{source_id}', () => {
  it('forgets as a task (202 with the task and source), then the source is gone: 404', async () => {
    await ingest({ text: 'Forget me soon.', source_id: 'doomed', skip_enrichment: true })
    await t.engram.tasks.idle()
    const res = await del('/sources/doomed')
    expect(res.statusCode, res.body).toBe(202)
    const accepted = res.json() as { message: string; task_id: string; source_id: string }
    expect(accepted).toEqual({
      message: 'Forget accepted',
      task_id: expect.any(String),
      source_id: 'doomed',
    })
    await t.engram.tasks.idle()
    const task = (await get(`/tasks/${accepted.task_id}`)).json()
    expect(task).toMatchObject({
      status: 'completed',
      result: { source_id: 'doomed', passages: 1 },
    })
    expect((await get('/sources/doomed')).statusCode).toBe(404)
    const again = await del('/sources/doomed')
    expect(again.statusCode).toBe(404)
    expect(envelope(again.body).error.code).toBe('RESOURCE_NOT_FOUND')
    const listed = (await get('/sources?query_text=doomed')).json() as { total: number }
    expect(listed.total).toBe(0)
  })
})

describe('brain isolation', () => {
  it('a brain token cannot list, read or forget another brain’s sources', async () => {
    const listed = (await get('/sources', otherToken)).json() as { total: number }
    expect(listed.total).toBe(0)
    expect((await get('/sources/notes-2', otherToken)).statusCode).toBe(404)
    expect((await del('/sources/notes-2', otherToken)).statusCode).toBe(404)
    // Naming the other brain is refused outright.
    const named = { ...otherToken, 'X-Brain-ID': 'default' }
    expect((await get('/sources', named)).statusCode).toBe(403)
    expect((await get('/sources/notes-2', named)).statusCode).toBe(403)
    expect((await del('/sources/notes-2', named)).statusCode).toBe(403)
    expect((await get('/sources/notes-2')).statusCode).toBe(200)
  })

  it('a brain token cannot delete another brain’s entities, relationships or observations', async () => {
    const records = await modelRecords()
    const named = { ...otherToken, 'X-Brain-ID': 'default' }
    for (const url of [
      `/model/entity/${records.entity}`,
      `/model/relationship/${records.relationship}`,
      `/model/observation/${records.observation}`,
    ]) {
      expect((await del(url, otherToken)).statusCode, url).toBe(404)
      expect((await del(url, named)).statusCode, url).toBe(403)
    }
    const entity = await get(`/retrieve/entity/status?target=${records.entity}`)
    expect(entity.json()).toMatchObject({ exists: true, has_relationships: true })
    expect((await get(`/retrieve/observations/${records.observation}`)).statusCode).toBe(200)
  })
})

/** An entity with a relationship, and an observation, written in the default brain. */
async function modelRecords() {
  const write = async (url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: t.system, payload })
    expect(res.statusCode, res.body).toBe(201)
    return res.json() as unknown
  }
  const [widget] = (await write('/model/entity', { name: `Widget ${Math.random()}` })) as {
    uuid: string
  }[]
  const [maker] = (await write('/model/entity', { name: `Maker ${Math.random()}` })) as {
    uuid: string
  }[]
  const relationship = (await write('/model/relationship', {
    subject_uuid: widget!.uuid,
    object_uuid: maker!.uuid,
    predicate_name: 'made by',
    predicate_description: '',
  })) as string
  await ingest({
    text: 'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
    source_id: `emily-${Math.random()}`,
  })
  await t.engram.tasks.idle()
  const observations = (await get('/retrieve/observations')).json() as {
    observations: { id: string }[]
  }
  return {
    entity: widget!.uuid,
    other: maker!.uuid,
    relationship,
    observation: observations.observations[0]!.id,
  }
}

describe('DELETE /model/*', () => {
  it('deletes a relationship, an entity and an observation, answering what went', async () => {
    const records = await modelRecords()
    const relationship = await del(`/model/relationship/${records.relationship}`)
    expect(relationship.statusCode, relationship.body).toBe(200)
    expect(relationship.json()).toEqual({
      deleted: { entities: 0, relationships: 1, observations: 0 },
    })
    expect((await del(`/model/relationship/${records.relationship}`)).statusCode).toBe(404)

    const entity = await del(`/model/entity/${records.entity}`)
    expect(entity.statusCode, entity.body).toBe(200)
    expect(entity.json()).toMatchObject({ deleted: { entities: 1 } })
    const status = await get(`/retrieve/entity/status?target=${records.entity}`)
    expect(status.json()).toMatchObject({ exists: false })
    // The entity at the other end stays.
    expect((await get(`/retrieve/entity/status?target=${records.other}`)).json()).toMatchObject({
      exists: true,
    })

    const observation = await del(`/model/observation/${enc(records.observation)}`)
    expect(observation.statusCode, observation.body).toBe(200)
    expect(observation.json()).toEqual({
      deleted: { entities: 0, relationships: 0, observations: 1 },
    })
    expect((await get(`/retrieve/observations/${records.observation}`)).statusCode).toBe(404)
  })

  it('answers 404 for unknown ids and 422 for ids over 200 characters', async () => {
    for (const url of [
      '/model/entity/no-such-uuid',
      '/model/relationship/no-such-uuid',
      '/model/observation/no-such-id',
    ]) {
      const res = await del(url)
      expect(res.statusCode, url).toBe(404)
      expect(envelope(res.body).error.code, url).toBe('RESOURCE_NOT_FOUND')
      const long = await del(url.replace(/no-such-.*/, 'x'.repeat(201)))
      expect(long.statusCode, url).toBe(422)
    }
  })

  it('requires a token', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/model/entity/x' })
    expect(res.statusCode).toBe(401)
  })
})

describe('/openapi.json', () => {
  it('documents the source routes and the deletes with their operation ids', async () => {
    const doc = (await get('/openapi.json')).json() as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    const ids = (path: string) =>
      Object.fromEntries(
        Object.entries(doc.paths[path] ?? {}).map(([m, op]) => [m, op.operationId]),
      )
    expect(ids('/sources')).toEqual({ get: 'sources_list' })
    expect(ids('/sources/{source_id}')).toEqual({ get: 'sources_get', delete: 'sources_forget' })
    expect(ids('/model/entity/{uuid}')).toEqual({ delete: 'model_delete_entity' })
    expect(ids('/model/relationship/{uuid}')).toEqual({ delete: 'model_delete_relationship' })
    expect(ids('/model/observation/{id}')).toEqual({ delete: 'model_delete_observation' })
  })
})
