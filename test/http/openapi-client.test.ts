import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateOpenApi } from '@engram/server'
import type { paths } from '@engram/client'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 11 item 13: a client generated from the OpenAPI document works. The types of
 * @engram/client's generated types come from openapi-typescript (kept in sync by the client's drift test
 * and typechecked with everything else by `tsc -b`); openapi-fetch is the runtime. One operation of each
 * group is called against a listening server through them, the file upload included: a request the
 * document describes wrongly fails to typecheck here or fails at run time.
 */
let server: ListeningApp
let client: ReturnType<typeof createClient<paths>>
let document: string

beforeAll(async () => {
  server = await listeningApp({ storage: 'memory' })
  client = createClient<paths>({ baseUrl: server.url, headers: { ServicePAT: SYSTEM_TOKEN } })
  document = await generateOpenApi()
})
afterAll(async () => {
  await server?.close()
})

describe('the generated TypeScript client', () => {
  it('serves the committed document', async () => {
    // What the server serves is that document (only `info.version` names the engine's version).
    const served = (await (await fetch(`${server.url}/openapi.json`)).json()) as { info: object }
    expect(served).toEqual({ ...JSON.parse(document), info: served.info })
  })

  it('public: GET /health', async () => {
    const { data, response } = await client.GET('/health')
    expect(data).toMatchObject({ service: 'engram', status: 'ok' })
    expect(response.headers.get('X-Request-ID')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('system and meta: POST /system/brains, then GET /meta/login-info with its token', async () => {
    const { data: brain, response } = await client.POST('/system/brains', {
      body: { brain_id: 'client' },
    })
    expect(response.status).toBe(201)
    expect(brain!.pat).toMatch(/^spat_/)
    const { data } = await client.GET('/meta/login-info', {
      headers: { ServicePAT: brain!.pat },
    })
    expect(data).toEqual({ brain_id: 'client', is_system_pat: false })
  })

  it('model: POST /model/entity into a brain chosen by the declared X-Brain-ID header', async () => {
    const { data, response } = await client.POST('/model/entity', {
      params: { header: { 'X-Brain-ID': 'client' } },
      body: { name: 'Widget', labels: ['PRODUCT'] },
    })
    expect(response.status).toBe(201)
    const [widget] = data!
    expect(widget).toMatchObject({ name: 'Widget', description: '', metadata: {}, happened_at: '' })
    const { data: labels } = await client.GET('/meta/entity-labels', {
      params: { header: { 'X-Brain-ID': 'client' } },
    })
    expect(labels).toEqual(['PRODUCT'])
  })

  it('ingest and tasks: a multipart file upload, then GET /tasks/{task_id}', async () => {
    const { data, response } = await client.POST('/ingest/file', {
      params: { header: { 'X-Brain-ID': 'client' } },
      body: {
        file: new Blob(['# Gadgets\n\nThe Gizmo ships in blue crates from Rotterdam.\n'], {
          type: 'text/markdown',
        }),
        meta_keys: JSON.stringify({ title: 'Gadgets' }),
      },
      // openapi-fetch sends JSON unless told otherwise; a part with a file name is what servers expect.
      bodySerializer: (body) => {
        const form = new FormData()
        form.append('file', body.file, 'gadgets.md')
        if (body.meta_keys !== undefined) form.append('meta_keys', body.meta_keys)
        return form
      },
    })
    expect(response.status).toBe(202)
    expect(data!.message).toBe('File ingestion accepted')
    await server.engram.tasks.idle()
    const { data: task } = await client.GET('/tasks/{task_id}', {
      params: { path: { task_id: data!.task_id }, header: { 'X-Brain-ID': 'client' } },
    })
    expect(task).toMatchObject({ status: 'completed', error: '', task_id: data!.task_id })
  })

  it('retrieve: GET /retrieve/search finds the uploaded file; typed errors carry the envelope', async () => {
    const { data } = await client.GET('/retrieve/search', {
      params: { query: { query: 'Gizmo crates' }, header: { 'X-Brain-ID': 'client' } },
    })
    expect(data!.hits[0]!.snippet).toContain('Gizmo')
    expect(data!.hits[0]!.extras).toMatchObject({ title: 'Gadgets' })
    expect(data!.stage_timings).toEqual({})
    const missing = await client.GET('/retrieve/observations/{id}', {
      params: { path: { id: 'nope' }, header: { 'X-Brain-ID': 'client' } },
    })
    expect(missing.response.status).toBe(404)
    expect(missing.error!.error.code).toBe('RESOURCE_NOT_FOUND')
    expect(missing.error!.error.request_id).toBe(missing.response.headers.get('X-Request-ID'))
  })
})
